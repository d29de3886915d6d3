// What `npm start`, `npm run keys` and `npm run db:*` run: `node scripts/runtime/run.mjs <entry> [args]`
// rebuilds dist/runtime when a source is newer, then runs the entry's module of server/ compiled, in this very process.
// One process, not a chain of commands under a shell: npm passes SIGTERM and SIGINT to it, so
// stopping `npm start` drains and stops the server instead of leaving it running.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRuntime, RUNTIME_DIR, runtimeIsStale } from './build.mjs';

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);

/** Each program by its name here, as its module lies under server/. */
const ENTRIES = {
  main: 'process/main',
  'keys-cli': 'tools/keys-cli',
  'db-cli': 'tools/db-cli',
  'webhooks-cli': 'tools/webhooks-cli',
};
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
  // The docs page is built with the contract's tooling, in a process of its own, beside the
  // server, which runs compiled and answers at once (/docs/ answers 503 until the page is there).
  // Its lines join the server's log as JSON objects; it stops when the server does.
  const ensureDocs = fileURLToPath(new URL('../docs/start.ts', import.meta.url));
  const docs = spawn(process.execPath, ['--import', 'tsx', ensureDocs], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Marked before the server starts, so that /docs/ never answers 404 while the step loads; the
  // step removes the mark when it ends (a step that was killed leaves a pid nothing runs under).
  // The name is node/http/compression.ts's DOCS_BUILDING_MARKER, which the server reads.
  const docsDir = fileURLToPath(new URL('../../dist/docs/', import.meta.url));
  mkdirSync(docsDir, { recursive: true });
  writeFileSync(path.join(docsDir, '.building'), String(docs.pid));
  const logLines = (stream, level) =>
    createInterface({ input: stream }).on('line', (line) => {
      if (line.trim() !== '')
        process.stdout.write(
          `${JSON.stringify({ time: new Date().toISOString(), level, event: 'docs', message: line })}\n`,
        );
    });
  logLines(docs.stdout, 'info');
  logLines(docs.stderr, 'warn');
  process.on('exit', () => {
    if (docs.exitCode === null && docs.signalCode === null) docs.kill('SIGTERM');
  });
}

const module = path.join(RUNTIME_DIR, 'server', `${ENTRIES[entry]}.js`);
// The entry reads its arguments from process.argv as if it had been started directly.
process.argv = [process.argv[0], module, ...args];
await import(pathToFileURL(module).href);
