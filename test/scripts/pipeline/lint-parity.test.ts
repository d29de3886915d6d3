// generate.ts lints through @redocly/openapi-core 2.64.0; `npm run lint:spec` runs the pinned
// Redocly CLI. Both must judge the contract alike, or the drift check and the lint step disagree.
import { copyFile, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Finding, lintContract } from '../../../scripts/pipeline/lint.ts';
import { type ContractLocations, contractLocations } from '../../../scripts/pipeline/locations.ts';
import { repoRoot, run } from '../../support/workspace.ts';

const redoclyCli = path.join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** Documents under openapi/ of a scratch project that uses the project's redocly.yaml. */
const BAD_DOCUMENTS: Record<string, Record<string, string>> = {
  'one file breaking built-in and custom rules': {
    'openapi.yaml': `openapi: 3.1.0
info:
  title: Bad
  version: 1.0.0
paths:
  /things:
    get:
      operationId: List_Things
      x-stability: alpha
      responses:
        '200':
          description: ok
components:
  schemas:
    Unused:
      type: string
`,
  },
  'several files, with a broken reference and invalid YAML': {
    'openapi.yaml': `openapi: 3.1.0
info:
  title: Bad
  version: 1.0.0
  description: Several files.
  license:
    name: MIT
    identifier: MIT
servers:
  - url: http://localhost:3000/v1
security:
  - bearerAuth: []
tags:
  - name: things
    description: Things.
paths:
  /things:
    $ref: paths/things.yaml
  /things/{id}:
    $ref: paths/things_{id}.yaml
components:
  securitySchemes:
    bearerAuth:
      type: http
      scheme: bearer
`,
    'paths/things.yaml': `get:
  operationId: listThings
  summary: List things
  description: Lists things.
  tags: [things]
  deprecated: true
  responses:
    '200':
      description: The things.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Thing.yaml
    '400':
      description: Bad request.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Missing.yaml
`,
    'paths/things_{id}.yaml': `get:
  operationId: getThing
  summary: Get a thing
  description: Gets a thing.
  tags: [things]
  x-sunset: 5 December 2030
  parameters:
    - name: id
      in: path
      required: true
      schema:
        type: integer
  responses:
    '200':
      description: The thing.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Broken.yaml
`,
    'components/schemas/Thing.yaml': `type: object
properties:
  id:
    type: integer
`,
    'components/schemas/Broken.yaml': `type: object
properties: [
`,
  },
};

interface Comparable {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  col: number;
}

describe('lintContract (openapi-core 2.64.0) against the pinned Redocly CLI', { timeout: 60_000 }, () => {
  let scratch: string;
  const projects = new Map<string, ContractLocations>();
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'animal-store-lint-parity-'));
    for (const [index, [name, files]] of Object.entries(BAD_DOCUMENTS).entries()) {
      const root = path.join(scratch, String(index));
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(root, 'openapi', file)), { recursive: true });
        await writeFile(path.join(root, 'openapi', file), content, 'utf8');
      }
      await copyFile(path.join(repoRoot, 'redocly.yaml'), path.join(root, 'redocly.yaml'));
      // The configuration's plugin, and the libraries it imports.
      await cp(path.join(repoRoot, 'scripts', 'lint'), path.join(root, 'scripts', 'lint'), { recursive: true });
      await symlink(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
      projects.set(name, contractLocations(root));
    }
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('finds nothing in the project contract, like the CLI', async () => {
    const locations = contractLocations(repoRoot);

    const [ours, cli] = await Promise.all([programmaticFindings(locations), cliFindings(locations)]);

    expect(cli).toEqual([]);
    expect(ours).toEqual([]);
  });

  it.each(Object.keys(BAD_DOCUMENTS))('reports the same rule ids at the same places on %s', async (name) => {
    const locations = projects.get(name);
    if (!locations) throw new Error(`no scratch project for ${name}`);

    const [ours, cli] = await Promise.all([programmaticFindings(locations), cliFindings(locations)]);

    expect(cli.length).toBeGreaterThan(3);
    expect(ours).toEqual(cli);
  });
});

async function programmaticFindings(locations: ContractLocations): Promise<Comparable[]> {
  const outcome = await lintContract(locations);
  return outcome.ok ? [] : sorted(outcome.findings.map(comparable));
}

async function cliFindings(locations: ContractLocations): Promise<Comparable[]> {
  const args = [redoclyCli, 'lint', locations.contract, `--config=${locations.lintConfig}`, '--format=json'];
  const result = await run(process.execPath, args, locations.root);
  const report = JSON.parse(result.stdout) as {
    problems: Array<{
      ruleId: string;
      severity: string;
      message: string;
      location: Array<{ source: { ref: string }; start: { line: number; col: number } }>;
    }>;
  };
  return sorted(
    report.problems.map((problem) => {
      const [location] = problem.location;
      if (!location) throw new Error(`CLI problem without a location: ${problem.message}`);
      return {
        ruleId: problem.ruleId,
        severity: problem.severity,
        message: problem.message,
        file: path.resolve(locations.root, location.source.ref),
        line: location.start.line,
        col: location.start.col,
      };
    }),
  );
}

function comparable(finding: Finding): Comparable {
  const { ruleId, severity, message, file = '', line = 0, col = 0 } = finding;
  return { ruleId, severity, message, file, line, col };
}

function sorted(findings: Comparable[]): Comparable[] {
  const key = (f: Comparable): string =>
    [f.file, String(f.line).padStart(6), String(f.col).padStart(6), f.ruleId, f.message].join('|');
  return [...findings].sort((a, b) => key(a).localeCompare(key(b)));
}
