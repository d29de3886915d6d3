// `npm run build`: compiles the server and the operator tools into dist/runtime/ (plain JavaScript,
// no loader at run time), copies the files they read beside their modules, and marks the build.
// Written in JavaScript so that `npm start` can check and rebuild it without a TypeScript loader.
// Each module is transpiled on its own by esbuild (types are erased, not checked: `npm run
// typecheck` and `npm test` check them), in about a second, so that the first `npm start` of a
// fresh clone answers within seconds (tsc took 10 to 30 s on two cores).
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const RUNTIME_DIR = path.join(root, 'dist', 'runtime');
const STAMP = path.join(RUNTIME_DIR, '.built');
/** The folders of the runtime's modules, each compiled into the same place under dist/runtime/. */
const MODULE_DIRS = ['server', 'core', 'node', 'contract', 'generated'];
/** What the compiled runtime is made of: a change to any of them calls for a new build. */
const SOURCES = [...MODULE_DIRS, 'tsconfig.json', 'package-lock.json'];
/** Files the runtime reads beside its modules: the Redis script, the bundled contract it imports. */
const ASSET = /\.(lua|json)$/;
/** A relative import of a TypeScript module, as the sources write it (`from './x.ts'`, `import('./x.ts')`). */
const TS_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+?)\.ts\2/g;

async function* filesUnder(entry) {
  const info = await stat(entry);
  if (!info.isDirectory()) {
    yield { file: entry, mtimeMs: info.mtimeMs };
    return;
  }
  for (const child of await readdir(entry)) yield* filesUnder(path.join(entry, child));
}

/** Whether dist/runtime is missing or older than any of its sources. */
export async function runtimeIsStale() {
  const built = await stat(STAMP).then(
    (info) => info.mtimeMs,
    () => undefined,
  );
  if (built === undefined) return true;
  for (const source of SOURCES) {
    for await (const { mtimeMs } of filesUnder(path.join(root, source))) if (mtimeMs > built) return true;
  }
  return false;
}

/**
 * Compiles into dist/runtime; throws with esbuild's report when a module cannot be read. Built
 * aside and moved into place whole, so that programs started at once (the tests run many) never
 * see a half-built runtime: the first build to finish is the one kept, the others' are dropped.
 */
export async function buildRuntime() {
  const aside = `${RUNTIME_DIR}.${process.pid}.building`;
  await rm(aside, { recursive: true, force: true });
  try {
    const { transform } = await import('esbuild');
    const work = [];
    for (const dir of MODULE_DIRS) {
      for await (const { file } of filesUnder(path.join(root, dir))) {
        const target = path.join(aside, path.relative(root, file));
        if (ASSET.test(file))
          work.push(mkdir(path.dirname(target), { recursive: true }).then(() => copyFile(file, target)));
        else if (file.endsWith('.ts') && !file.endsWith('.d.ts')) work.push(compile(transform, file, target));
      }
    }
    await Promise.all(work);
    await writeFile(path.join(aside, path.basename(STAMP)), `${new Date().toISOString()}\n`);
    await moveIntoPlace(aside);
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

/** How esbuild compiles each module: TypeScript to ESM for the Node.js versions the project runs on. */
export const RUNTIME_TRANSFORM = { loader: 'ts', format: 'esm', platform: 'node', target: 'node20' };

/** One module: its JavaScript, importing `.js` where the source imports `.ts`, and its source map. */
async function compile(transform, file, target) {
  const output = target.replace(/\.ts$/, '.js');
  const relativeSource = path.relative(path.dirname(output), file);
  const { code, map } = await transform(await readFile(file, 'utf8'), {
    ...RUNTIME_TRANSFORM,
    // The bundled contract is imported as JSON, which Node accepts only with its attribute.
    supported: { 'import-attributes': true },
    sourcemap: 'external',
    // Stack traces need the lines, not the text: a map without it costs the process less memory.
    sourcesContent: false,
    sourcefile: relativeSource,
  }).catch((error) => {
    throw new Error(`build: esbuild could not compile ${path.relative(root, file)}:\n${error.message}`);
  });
  await mkdir(path.dirname(output), { recursive: true });
  const javascript = code.replace(TS_IMPORT, '$1$2$3.js$2');
  await writeFile(output, `${javascript}//# sourceMappingURL=${path.basename(output)}.map\n`);
  await writeFile(`${output}.map`, map);
}

/** Moves a finished build to dist/runtime, unless another build that is current got there first. */
async function moveIntoPlace(aside) {
  try {
    await rename(aside, RUNTIME_DIR);
  } catch (error) {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    if (!(await runtimeIsStale())) return;
    await rm(RUNTIME_DIR, { recursive: true, force: true });
    await rename(aside, RUNTIME_DIR);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await buildRuntime();
    console.log(`build: compiled the server and its tools into ${path.relative(root, RUNTIME_DIR)}/`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
