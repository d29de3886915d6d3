import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, type OpenApiDocument } from '../../contract/index.ts';
import { createLogger } from '../../server/logger.ts';
import { openService, type Service } from '../../server/service.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { createWorkspace, repoRoot, type Workspace } from './workspace.ts';

/** A per-minute limit no plan has, so it can only have come from the edit. */
const EDITED_PER_MINUTE = 7;

describe('a plan limit edited in the contract alone', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  let service: Service;

  beforeAll(async () => {
    workspace = await createWorkspace();
    await workspace.write('README.md', await readFile(path.join(repoRoot, 'README.md'), 'utf8'));
    await workspace.editYaml('openapi/components/securitySchemes/bearerAuth.yaml', (scheme) => {
      scheme['x-rate-limits'].plans.free.perMinute = EDITED_PER_MINUTE;
    });
    const generated = await workspace.npmRun('generate');
    expect(generated.code, generated.stderr).toBe(0);
    service = openService({
      databasePath: ':memory:',
      clock: new FakeClock(),
      logger: createLogger('silent'),
      clientAddress: () => '192.0.2.7',
      contract: new Contract(JSON.parse(await workspace.read('generated/openapi.json')) as OpenApiDocument),
    });
  }, 60_000);
  afterAll(async () => {
    service.close();
    await workspace.dispose();
  });

  const editedRow = `| free | ${EDITED_PER_MINUTE} | 1,000 |`;

  it('is what the server enforces and states in its headers, for keys of the plan', async () => {
    const { secret } = await service.keys.create({ plan: 'free' });
    const headers = { Authorization: `Bearer ${secret}` };
    for (let sent = 1; sent <= EDITED_PER_MINUTE; sent++) {
      const response = await service.app.request('/v1/pets', { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-RateLimit-Limit')).toBe(String(EDITED_PER_MINUTE));
      expect(response.headers.get('X-RateLimit-Remaining')).toBe(String(EDITED_PER_MINUTE - sent));
    }
    expect((await service.app.request('/v1/pets', { headers })).status).toBe(429);
  });

  it('is what the server enforces for requests without a key, limited on the free plan', async () => {
    const response = await service.app.request('/v1/pets');
    expect(response.status).toBe(401);
    expect(response.headers.get('X-RateLimit-Limit')).toBe(String(EDITED_PER_MINUTE));
  });

  it('is what the published contract and its docs show', async () => {
    const bundle = JSON.parse(await workspace.read('generated/openapi.json')) as { info: { description: string } };
    expect(bundle.info.description).toContain(editedRow);
    expect(bundle.info.description).not.toContain('<!-- x-rate-limits -->');
  });

  it('is what the README table says after npm run generate, and --check holds it current', async () => {
    expect(await workspace.read('README.md')).toContain(editedRow);
    expect((await workspace.npmRun('generate', '--check')).code).toBe(0);
  });

  it('makes a README that still shows the old table fail the check', async () => {
    const current = await workspace.read('README.md');
    await workspace.write('README.md', current.replace(editedRow, '| free | 60 | 1,000 |'));
    const check = await workspace.npmRun('generate', '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("README.md's rate-limit table does not match the contract");
    await workspace.write('README.md', current);
  });
});
