// `npm run build`: compiles the server and the operator tools into dist/runtime/ (plain JavaScript,
// no loader at run time), copies the files they read beside their modules, and marks the build.
// Written in JavaScript so that `npm start` can check and rebuild it without a TypeScript loader.
import { spawnSync } from 'node:child_process';
import { copyFile, cp, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const RUNTIME_DIR = path.join(root, 'dist', 'runtime');
const STAMP = path.join(RUNTIME_DIR, '.built');
/** tsc's record of the last build, in the build's own folder. */
const BUILD_INFO = '.tsbuildinfo';
/** What the compiled runtime is made of: a change to any of them calls for a new build. */
const SOURCES = [
  'server',
  'core',
  'node',
  'contract',
  'generated',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
];
/** Files the server reads beside its modules at run time (not imported, so not emitted by tsc). */
const ASSET = /\.lua$/;

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
 * Compiles into dist/runtime; throws with tsc's report when it fails. Built aside and moved into
 * place whole, so that programs started at once (the tests run many) never see a half-built
 * runtime: the first build to finish is the one kept, the others' are dropped.
 */
export async function buildRuntime() {
  const aside = `${RUNTIME_DIR}.${process.pid}.building`;
  await rm(aside, { recursive: true, force: true });
  try {
    // From the current build, where there is one: its build information (kept in the folder, with
    // paths relative to it) lets tsc check and emit only what changed since.
    await cp(RUNTIME_DIR, aside, { recursive: true }).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
    });
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const compiled = spawnSync(
      process.execPath,
      [
        tsc,
        '-p',
        path.join(root, 'tsconfig.build.json'),
        '--outDir',
        aside,
        '--incremental',
        '--tsBuildInfoFile',
        path.join(aside, BUILD_INFO),
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (compiled.status !== 0) {
      throw new Error(`build: tsc failed (exit ${compiled.status}):\n${compiled.stdout}${compiled.stderr}`);
    }
    for (const source of SOURCES) {
      for await (const { file } of filesUnder(path.join(root, source))) {
        if (!ASSET.test(file)) continue;
        const target = path.join(aside, path.relative(root, file));
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(file, target);
      }
    }
    await writeFile(path.join(aside, path.basename(STAMP)), `${new Date().toISOString()}\n`);
    await moveIntoPlace(aside);
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
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
