// Row 6 of the bench: the wall time of `npm test` in this repository, as it is.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seconds } from './edit-loop.ts';
import { judged, type Row } from './table.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Issue 42: on an idle machine of this kind (2 cores).
const TARGET_MS = 180_000;
export const TEST_SUITE_FIGURE = 'npm test, wall time';
export const TEST_SUITE_TARGET = `< ${seconds(TARGET_MS)}`;

export async function testSuiteRows(log: (line: string) => void): Promise<Row[]> {
  const started = performance.now();
  const child = spawn('npm', ['test'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const wall = performance.now() - started;
  // A failing suite's time says nothing about the target: it is reported, with the failures vitest
  // named (well above its summary: its FAIL and × lines) and its last lines.
  if (code !== 0) {
    const lines = output.trimEnd().split('\n');
    const failures = lines.filter((line) => /\bFAIL\b|×/.test(line));
    log(
      `  npm test exited with ${code}; the failures it named:\n${failures.join('\n')}\n  its last lines:\n${lines.slice(-15).join('\n')}`,
    );
  }
  return [
    judged(
      TEST_SUITE_FIGURE,
      `${seconds(wall)}${code === 0 ? '' : ` (exited with ${code})`}`,
      TEST_SUITE_TARGET,
      code === 0 && wall < TARGET_MS,
    ),
  ];
}
