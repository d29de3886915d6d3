// The types of build.mjs, which is JavaScript so that `npm start` runs it without a TypeScript loader.

/** Where `npm run build` writes the compiled server and tools. */
export const RUNTIME_DIR: string;
/** How esbuild compiles each module: TypeScript to ESM for the Node.js versions the project runs on. */
export const RUNTIME_TRANSFORM: { loader: 'ts'; format: 'esm'; platform: 'node'; target: string };
/** Whether dist/runtime is missing or older than any of its sources. */
export function runtimeIsStale(): Promise<boolean>;
/** Compiles into dist/runtime; rejects with tsc's report when it fails. */
export function buildRuntime(): Promise<void>;
