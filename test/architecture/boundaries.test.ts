// npm run lint:boundaries enforces the architecture's rooms (../shared/architecture.md): an import
// that crosses a wall fails it, naming the rule and the import.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository, type RepositoryCopy } from '../../support/repository-copy.ts';

const CHECKED = [
  '.dependency-cruiser.cjs',
  'package.json',
  'tsconfig.json',
  'contract',
  'core',
  'fuzz',
  'server',
  'mock',
  'client',
  'scripts',
  'generated',
  'support',
  'test',
  'bench',
];

let copy: RepositoryCopy;
beforeAll(async () => {
  copy = await copyRepository(CHECKED, 'animal-store-boundaries-');
});
afterAll(() => copy.remove());

async function lintBoundaries(): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'lint:boundaries'], {
      cwd: copy.root,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, output: failure.stdout + failure.stderr };
  }
}

describe('npm run lint:boundaries', { timeout: 120_000 }, () => {
  it('passes on the repository as it is', async () => {
    expect(await lintBoundaries()).toMatchObject({ code: 0 });
  });

  it.each([
    [
      'core-is-shared-by-all',
      'core/leak.ts',
      "import { readConfig } from '../server/config.ts';\nexport const leak = readConfig;\n",
    ],
    [
      'core-is-browser-safe',
      'core/leak.ts',
      "import { readFileSync } from 'node:fs';\nexport const leak = readFileSync;\n",
    ],
    [
      'contract-through-its-index',
      'server/leak.ts',
      "import { errorCodes } from '../contract/error-codes.ts';\nexport const leak = errorCodes;\n",
    ],
    [
      'server-is-not-a-tool',
      'server/leak.ts',
      "import { contractLocations } from '../scripts/pipeline.ts';\nexport const leak = contractLocations;\n",
    ],
    [
      'client-ships-browser-code',
      'client/leak.ts',
      "import { readConfig } from '../server/config.ts';\nexport const leak = readConfig;\n",
    ],
    [
      'fuzzer-reads-only-the-contract',
      'fuzz/leak.ts',
      "import { createApp } from '../core/app.ts';\nexport const leak = createApp;\n",
    ],
    [
      'tests-and-bench-apart',
      'bench/leak.ts',
      "import { defined } from '../test/support/defined.ts';\nexport const leak = defined;\n",
    ],
  ])('fails on an import that breaks %s, naming the rule and the file', async (rule, file, source) => {
    await writeFile(path.join(copy.root, file), source);
    try {
      const { code, output } = await lintBoundaries();
      expect(code).not.toBe(0);
      expect(output).toContain(`${rule}: ${file}`);
    } finally {
      await writeFile(path.join(copy.root, file), '');
    }
  });
});
