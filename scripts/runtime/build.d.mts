// The types of build.mjs, which is JavaScript so that `npm start` runs it without a TypeScript loader.

/** Where `npm run build` writes the compiled server and tools. */
export const RUNTIME_DIR: string;
/** Whether dist/runtime is missing or older than any of its sources. */
export function runtimeIsStale(): Promise<boolean>;
/** Compiles into dist/runtime; rejects with tsc's report when it fails. */
export function buildRuntime(): Promise<void>;
