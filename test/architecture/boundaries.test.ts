// npm run lint:boundaries enforces the architecture's rooms (../shared/architecture.md): an import
// that crosses a wall fails it, naming the rule and the import. One run over a copy of the
// repository with an import planted for every rule of .dependency-cruiser.cjs: each is reported
// under its rule, and nothing else is, so the repository as it is passes.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository, REPOSITORY_ROOT, type RepositoryCopy } from '../../support/repository-copy.ts';

const CHECKED = [
  '.dependency-cruiser.cjs',
  'package.json',
  'tsconfig.json',
  'contract',
  'core',
  'node',
  'fuzz',
  'mcp',
  'server',
  'mock',
  'client',
  'scripts',
  'generated',
  'support',
  'test',
  'bench',
];

/** The rules of the configuration, by name: each needs a planted import below. */
const RULES: string[] = createRequire(import.meta.url)(
  path.join(REPOSITORY_ROOT, '.dependency-cruiser.cjs'),
).forbidden.map((rule: { name: string }) => rule.name);

/** An import that breaks each rule, planted in a file of its own: the rule, the file and its source. */
const PLANTED: ReadonlyArray<[rule: string, file: string, source: string]> = [
  ['contract-reads-only-generated', 'contract/leak.ts', "export { errorBody } from '../core/errors.ts';\n"],
  [
    'pipeline-reads-the-working-copy',
    'scripts/pipeline/leak.ts',
    "export { loadContract } from '../../contract/bundled.ts';\n",
  ],
  ['generated-imports-nothing', 'generated/leak.ts', "export { loadContract } from '../contract/bundled.ts';\n"],
  ['node-layer-serves-all', 'node/leak.ts', "export { readConfig } from '../server/process/config.ts';\n"],
  ['core-is-shared-by-all', 'core/leak-server.ts', "export { readConfig } from '../server/process/config.ts';\n"],
  ['core-is-browser-safe', 'core/leak-fs.ts', "export { readFileSync } from 'node:fs';\n"],
  ['server-is-not-a-tool', 'server/leak.ts', "export { contractLocations } from '../scripts/pipeline/locations.ts';\n"],
  [
    'mock-from-the-core',
    'mock/node/leak-scripts.ts',
    "export { contractLocations } from '../../scripts/pipeline/locations.ts';\n",
  ],
  [
    'mock-not-the-server-service',
    'mock/node/leak-server.ts',
    "export { openService } from '../../server/service.ts';\n",
  ],
  ['mock-app-stands-on-the-core', 'mock/app/leak-node.ts', "export { listen } from '../../node/listen.ts';\n"],
  ['mock-app-is-browser-safe', 'mock/app/leak-fs.ts', "export { readFileSync } from 'node:fs';\n"],
  ['client-ships-browser-code', 'client/leak.ts', "export { readConfig } from '../server/process/config.ts';\n"],
  ['mcp-stands-on-the-contract', 'mcp/leak.ts', "export { openService } from '../server/service.ts';\n"],
  ['fuzzer-reads-only-the-contract', 'fuzz/leak.ts', "export { createApp } from '../core/app.ts';\n"],
  ['scripts-read-the-contract', 'scripts/leak.ts', "export { createApp } from '../core/app.ts';\n"],
  [
    'docs-console-uses-the-package',
    'scripts/docs/console/leak.ts',
    "export { createApp } from '../../../core/app.ts';\n",
  ],
  ['tests-and-bench-apart', 'bench/leak.ts', "export { defined } from '../test/support/defined.ts';\n"],
  ['bench-apart-from-tests', 'test/leak.ts', "export { wrk } from '../bench/wrk.ts';\n"],
  ['telemetry-libraries-on-demand', 'server/leak-metrics.ts', "export { Registry } from 'prom-client';\n"],
  ['telemetry-modules-on-demand', 'server/app/leak-tracing.ts', "export * from '../telemetry/tracing.ts';\n"],
  [
    'backing-services-on-demand',
    'server/app/leak-postgres.ts',
    "export { openPostgresStorage } from '../storage/postgres/storage.ts';\n",
  ],
  ['no-cycles', 'core/leak-cycle-a.ts', "export { b } from './leak-cycle-b.ts';\nexport const a = 1;\n"],
];
/** The other half of the planted cycle. */
const CYCLE_PARTNER: [file: string, source: string] = [
  'core/leak-cycle-b.ts',
  "export { a } from './leak-cycle-a.ts';\nexport const b = 2;\n",
];

let copy: RepositoryCopy;
let output = '';
let code = 0;
beforeAll(async () => {
  copy = await copyRepository(CHECKED, 'animal-store-boundaries-');
  for (const [file, source] of [...PLANTED.map(([, file, source]) => [file, source] as const), CYCLE_PARTNER]) {
    await mkdir(path.dirname(path.join(copy.root, file)), { recursive: true });
    await writeFile(path.join(copy.root, file), source);
  }
  try {
    const ran = await promisify(execFile)('npm', ['run', '--silent', 'lint:boundaries'], { cwd: copy.root });
    output = ran.stdout + ran.stderr;
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    ({ code } = failure);
    output = failure.stdout + failure.stderr;
  }
}, 120_000);
afterAll(() => copy.remove());

/** The `rule: file` of each violation reported. */
const reported = () => [...output.matchAll(/^\s*error (\S+): (\S+)/gm)].map(([, rule, file]) => `${rule}: ${file}`);

describe('npm run lint:boundaries', () => {
  it('has a planted import for every rule of .dependency-cruiser.cjs', () => {
    expect(PLANTED.map(([rule]) => rule).sort()).toEqual([...RULES].sort());
  });

  it('fails, naming each rule broken and the file that breaks it', () => {
    expect(code).not.toBe(0);
    for (const [rule, file] of PLANTED) expect(reported()).toContain(`${rule}: ${file}`);
  });

  it('reports nothing but the planted imports: the repository as it is passes', () => {
    const planted = new Set([...PLANTED.map(([, file]) => file), CYCLE_PARTNER[0]]);
    expect(reported().filter((violation) => !planted.has(violation.split(': ')[1] ?? ''))).toEqual([]);
  });
});
