// `npm run bench:generate`: only the edit-loop figures of `npm run bench` that need no server, a
// full `npm run generate` (target: under 2 s) and a watch regeneration (under 1 s), on a
// throw-away copy of the repository; for working on the contract pipeline's speed.
import { cpus, loadavg } from 'node:os';
import { editLoopRows } from './edit-loop.ts';
import { markdownTable, missedAny } from './table.ts';
import { createWorkspace } from './workspace.ts';

const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
console.log(`${cpus().length} cores, load average before ${loads()}`);
const workspace = await createWorkspace();
try {
  const rows = await editLoopRows(workspace.root, {
    generateRuns: 7,
    watchEdits: 10,
    log: (line) => console.log(line),
  });
  console.log(`\n${markdownTable(rows)}\n\nload average after ${loads()}`);
  process.exitCode = missedAny(rows) ? 1 : 0;
} finally {
  await workspace.remove();
}
