import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../node/batched-stdout.ts', import.meta.url));

/** Runs `script` in a fresh Node process with `write` = batchedStdout(), and returns what it printed. */
function run(script: string) {
  const program = `import { batchedStdout } from ${JSON.stringify(LOGGER)};\nconst write = batchedStdout();\n${script}`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8' });
}

describe('batchedStdout', () => {
  it('writes every line in order, across turns of the event loop', () => {
    const result = run(`
      write('1\\n'); write('2\\n');
      setImmediate(() => { write('3\\n'); setTimeout(() => write('4\\n'), 5); });
    `);
    expect(result.stdout).toBe('1\n2\n3\n4\n');
  });

  it('writes the lines still waiting for their turn when the process exits', () => {
    const result = run(`write('before exit\\n'); process.exit(3);`);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('before exit\n');
  });

  it('writes the lines still waiting when an uncaught exception ends the process', () => {
    const result = run(`setTimeout(() => { write('a\\n'); write('b\\n'); throw new Error('boom'); }, 1);`);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('a\nb\n');
    expect(result.stderr).toMatch(/boom/);
  });
});
