// Loaded with `node --import ./scripts/preload-tools.mjs --import tsx ...`, before tsx registers
// its loader hooks. Those hooks cost about 0.6 s on the ~500 modules of Redocly's openapi-core,
// openapi-typescript and TypeScript (measured by `npm run bench:generate`); modules loaded here
// are already cached when the TypeScript scripts import them, so only our own files pass through tsx.
await Promise.all([import('@redocly/openapi-core'), import('openapi-typescript'), import('chokidar')]);
