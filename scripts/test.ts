// `npm test`: every part of the check side by side (each also runs alone as `npm run <part>`), each
// line labelled with its part, then one short summary: each part, passed or failed, and its time.
// It fails when any part fails. Colours only on a terminal.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** The parts, as package.json names their scripts, with what each checks. */
const PARTS: ReadonlyArray<[script: string, checks: string]> = [
  ['lint:spec', 'spec lint'],
  ['lint:ci', 'code lint and format'],
  ['lint:boundaries', 'import boundaries'],
  ['lint:unused', 'unused files, exports, dependencies'],
  ['check:generated', 'generated/ drift'],
  ['diff', 'breaking-change gate'],
  ['typecheck', 'typecheck'],
  ['test:vitest', 'vitest'],
];

interface Outcome {
  script: string;
  checks: string;
  passed: boolean;
  seconds: number;
}

const terminal = process.stdout.isTTY === true;
const width = Math.max(...PARTS.map(([script]) => script.length));
// A child writes colour codes only when told it writes to a terminal.
const colour = terminal ? { FORCE_COLOR: '1' } : { NO_COLOR: '1', FORCE_COLOR: '0' };

async function runPart(script: string, checks: string): Promise<Outcome> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script], {
    env: { ...process.env, ...colour },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const label = `[${script.padEnd(width)}] `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${label}${line}\n`));
  }
  const [code] = (await once(child, 'close')) as [number | null];
  return { script, checks, passed: code === 0, seconds: (performance.now() - started) / 1000 };
}

const outcomes = await Promise.all(PARTS.map(([script, checks]) => runPart(script, checks)));
const paint = (passed: boolean, text: string) => (terminal ? `\u001b[${passed ? 32 : 31}m${text}\u001b[0m` : text);
const failed = outcomes.filter((outcome) => !outcome.passed);
process.stdout.write(
  `\nnpm test: ${failed.length === 0 ? 'every part passed' : `${failed.length} of ${outcomes.length} parts failed`}\n`,
);
for (const { script, checks, passed, seconds } of outcomes) {
  const verdict = paint(passed, passed ? 'passed' : 'FAILED');
  process.stdout.write(`  ${script.padEnd(width)}  ${verdict}  ${seconds.toFixed(1).padStart(6)} s  ${checks}\n`);
}
process.exitCode = failed.length === 0 ? 0 : 1;
