// `npm run bench:gc-soak [-- --seconds 120]`: the compiled server (dist/runtime, what `npm start`
// runs) under mixed load while V8 collects garbage often, between tasks too (support/gc-soak.ts),
// on the Node that runs the bench. First a control: the same server and pressure with a module
// preloaded that drops a better-sqlite3 statement every millisecond, which better-sqlite3 12 on
// Node 24 (from 24.19) answers by aborting the process; then the soak, which must end with the
// server running and stopping cleanly. Exits 1 when the soak fails, or when the control does not
// abort on a Node that has the abort (the pressure would then prove nothing).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type SoakResult, soakServer } from '../support/gc-soak.ts';
import { REPOSITORY_ROOT } from '../support/repository-copy.ts';
import { judged, markdownTable, missedAny, reference } from './table.ts';

const CONTROL_SECONDS = 15;
const { values } = parseArgs({ options: { seconds: { type: 'string', default: '120' } } });
const seconds = Number(values.seconds);
if (!Number.isInteger(seconds) || seconds < 1) {
  console.error('usage: npm run bench:gc-soak [-- --seconds <whole seconds, default 120>]');
  process.exit(2);
}

/** Whether this Node's ObjectWrap removes its cleanup hook when finalized: Node 24.19 and later. */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const abortsOnDroppedStatements = major > 24 || (major === 24 && minor >= 19);

execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPOSITORY_ROOT, stdio: 'inherit' });
const folder = mkdtempSync(path.join(tmpdir(), 'animal-store-bench-gc-soak-'));
const loadBefore = loadavg()
  .map((load) => load.toFixed(1))
  .join(' ');

const run = (name: string, runSeconds: number, control: boolean) =>
  soakServer({
    root: REPOSITORY_ROOT,
    runtime: 'compiled',
    databasePath: path.join(folder, `${name}.db`),
    seconds: runSeconds,
    control,
  });
const ended = ({ exit }: SoakResult) => (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`);
const requests = ({ answers }: SoakResult) => Object.values(answers).reduce((sum, count) => sum + count, 0);

let control: SoakResult;
let soak: SoakResult;
try {
  control = await run('control', CONTROL_SECONDS, true);
  soak = await run('soak', seconds, false);
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const controlAborted = control.exit.signal === 'SIGABRT';
const rows = [
  abortsOnDroppedStatements
    ? judged(
        `control: the same pressure on a server that drops a statement every millisecond (up to ${CONTROL_SECONDS} s)`,
        `${ended(control)} after ${requests(control)} requests`,
        'aborted (SIGABRT): the pressure reaches the abort',
        controlAborted,
      )
    : reference(
        `control (Node ${process.versions.node} has no such abort; the soak proves it only on 24.19 or later)`,
        `${ended(control)} after ${requests(control)} requests`,
      ),
  judged(
    `soak: the compiled server, ${seconds} s of mixed load`,
    `${ended(soak)}; ${requests(soak)} requests, ${soak.majorCollections} full collections, ${soak.failures.length} failures`,
    'still running at the end, exit code 0, no answer ≥ 500',
    soak.aliveAtEnd && soak.exit.code === 0 && soak.failures.length === 0,
  ),
];
console.log(`npm run bench:gc-soak on Node ${process.versions.node}, load average before ${loadBefore}\n`);
console.log(markdownTable(rows));
for (const failure of soak.failures.slice(0, 10)) console.log(`  ${failure}`);
if (!soak.aliveAtEnd) console.log(soak.stderr.slice(0, 2_000));
if (missedAny(rows)) process.exitCode = 1;
