// What `npm start`, `npm run keys` and `npm run db:*` run: `node scripts/runtime/run.mjs <entry> [args]`
// rebuilds dist/runtime when a source is newer, then runs the entry's module of server/ compiled, in this very process.
// One process, not a chain of commands under a shell: npm passes SIGTERM and SIGINT to it, so
// stopping `npm start` drains and stops the server instead of leaving it running.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRuntime, RUNTIME_DIR, runtimeIsStale } from './build.mjs';

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);

/** Each program by its name here, as its module lies under server/. */
const ENTRIES = { main: 'process/main', 'keys-cli': 'tools/keys-cli', 'db-cli': 'tools/db-cli' };
const [entry, ...args] = process.argv.slice(2);
if (!Object.hasOwn(ENTRIES, entry)) {
  console.error(`usage: node scripts/runtime/run.mjs <${Object.keys(ENTRIES).join('|')}> [arguments]`);
  process.exit(2);
}

if (await runtimeIsStale()) {
  try {
    await buildRuntime();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (entry === 'main') {
  // The docs page is built with the contract's tooling (a build step, in a process of its own);
  // the server itself runs compiled.
  const ensureDocs = fileURLToPath(new URL('../docs/start.ts', import.meta.url));
  const docs = spawnSync(process.execPath, ['--import', 'tsx', ensureDocs], { stdio: 'inherit' });
  if (docs.status !== 0) process.exit(docs.status ?? 1);
}

const module = path.join(RUNTIME_DIR, 'server', `${ENTRIES[entry]}.js`);
// The entry reads its arguments from process.argv as if it had been started directly.
process.argv = [process.argv[0], module, ...args];
await import(pathToFileURL(module).href);
