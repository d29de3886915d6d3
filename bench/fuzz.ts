// `npm run bench:fuzz`: only row 8 of `npm run bench`, the fuzzer's pace against the server, in
// about half a minute and without wrk; for working on the fuzzer's speed.
import { cpus, loadavg } from 'node:os';
import { fuzzRows } from './fuzz-rate.ts';
import { markdownTable, missedAny } from './table.ts';

const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
console.log(`${cpus().length} cores, load average before ${loads()}`);
const rows = await fuzzRows((line) => console.log(line));
console.log(`\n${markdownTable(rows)}\n\nload average after ${loads()}`);
process.exitCode = missedAny(rows) ? 1 : 0;
