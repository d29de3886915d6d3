import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { Contract } from '../../../contract/contract.ts';
import type { OpenApiDocument } from '../../../contract/document.ts';
import { createLogger } from '../../../core/logger.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { VERSION_MARKER } from '../../../scripts/pipeline/rules-prose.ts';
import { openService, type Service } from '../../../server/service.ts';
import { FakeClock } from '../../support/fake-clock.ts';
import { createWorkspace, repoRoot, type Workspace } from '../../support/workspace.ts';

/** A per-minute limit no plan has, so it can only have come from the edit. */
const EDITED_PER_MINUTE = 7;

/** A number as the rate-limit table writes it: `1,000`. */
const count = (value: number) => value.toLocaleString('en-US');

describe('a plan limit edited in the contract alone', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  let service: Service;
  /** The free plan's limits as the copied contract stated them before the edit. */
  let before: { perMinute: number; perDay: number };
  /** The free plan's row of the rate-limit table with `perMinute`; its day limit is not edited. */
  const freeRow = (perMinute: number) => `| free | ${count(perMinute)} | ${count(before.perDay)} |`;

  beforeAll(async () => {
    workspace = await createWorkspace();
    await workspace.write('README.md', await readFile(path.join(repoRoot, 'README.md'), 'utf8'));
    await workspace.editYaml('openapi/components/securitySchemes/bearerAuth.yaml', (scheme) => {
      before = { ...scheme['x-rate-limits'].plans.free };
      scheme['x-rate-limits'].plans.free.perMinute = EDITED_PER_MINUTE;
    });
    expect(before.perMinute, 'the edit changes the limit').not.toBe(EDITED_PER_MINUTE);
    const generated = await workspace.generate();
    expect(generated.code, generated.stderr).toBe(0);
    service = await openService({
      storage: { engine: 'sqlite', path: ':memory:' },
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

  it('is what the server enforces and states in its headers, for keys of the plan', async () => {
    const { secret } = await service.storage.keys.create({ plan: 'free' });
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
    expect(bundle.info.description).toContain(freeRow(EDITED_PER_MINUTE));
    expect(bundle.info.description).not.toContain('<!-- x-rate-limits -->');
  });

  it('is what the README table says after npm run generate, and --check holds it current', async () => {
    expect(await workspace.read('README.md')).toContain(freeRow(EDITED_PER_MINUTE));
    expect((await workspace.generate('--check')).code).toBe(0);
  });

  it('makes a README that still shows the old table fail the check', async () => {
    const current = await workspace.read('README.md');
    await workspace.write('README.md', current.replace(freeRow(EDITED_PER_MINUTE), freeRow(before.perMinute)));
    const check = await workspace.generate('--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("README.md's rate-limit table does not match the contract");
    await workspace.write('README.md', current);
  });
});

/** A code, status and meanings no contract has, so they can only have come from the edit. */
const ADDED_CODE = 'teapot_refused';
const ADDED_ROW = `| \`${ADDED_CODE}\` | 418 | The service is a teapot and refuses to brew. |`;
const EDITED_GONE_ROW = '| `gone` | 410 | Removed, edited in the contract alone. |';

describe('an error code edited in the contract alone', { timeout: 60_000 }, () => {
  let workspace: Workspace;

  beforeAll(async () => {
    workspace = await createWorkspace();
    await workspace.write('README.md', await readFile(path.join(repoRoot, 'README.md'), 'utf8'));
    await workspace.editYaml('openapi/components/schemas/Error.yaml', (schema) => {
      const code = schema.properties.code;
      code.enum.push(ADDED_CODE);
      code['x-error-codes'][ADDED_CODE] = { status: 418, meaning: 'The service is a teapot and refuses to brew.' };
      code['x-error-codes'].gone.meaning = 'Removed, edited in the contract alone.';
    });
    const generated = await workspace.generate();
    expect(generated.code, generated.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await workspace.dispose();
  });

  it('is what the table of codes in the published contract and its docs says', async () => {
    const bundle = JSON.parse(await workspace.read('generated/openapi.json')) as { info: { description: string } };
    expect(bundle.info.description).toContain(ADDED_ROW);
    expect(bundle.info.description).toContain(EDITED_GONE_ROW);
    expect(bundle.info.description).not.toContain('<!-- x-error-codes -->');
  });

  it('is the status generated/rules.ts gives the code, which the app types its errors with', async () => {
    expect(await workspace.read('generated/rules.ts')).toContain(`  ${ADDED_CODE}: 418,`);
  });

  it('is a code of the generated types the server and the client compile against', async () => {
    expect(await workspace.read('generated/openapi.ts')).toContain(`"${ADDED_CODE}"`);
  });

  it('is what the README table says after npm run generate, and --check holds it current', async () => {
    const readme = await workspace.read('README.md');
    expect(readme).toContain(ADDED_ROW);
    expect(readme).toContain(EDITED_GONE_ROW);
    expect((await workspace.generate('--check')).code).toBe(0);
  });

  it('makes a README that still shows the old table fail the check', async () => {
    const current = await workspace.read('README.md');
    await workspace.write('README.md', current.replace(`${ADDED_ROW}\n`, ''));
    const check = await workspace.generate('--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("README.md's error-code table does not match the contract");
    expect(check.stderr).not.toContain('rate-limit table');
    await workspace.write('README.md', current);
  });

  it('fails the lint, and writes nothing, when a code of the enum has no entry', async () => {
    const before = await workspace.snapshotGenerated();
    const source = await workspace.read('openapi/components/schemas/Error.yaml');
    await workspace.editYaml('openapi/components/schemas/Error.yaml', (schema) => {
      schema.properties.code.enum.push('unexplained');
    });
    const generated = await workspace.generate();
    await workspace.write('openapi/components/schemas/Error.yaml', source);
    expect(generated.code).toBe(1);
    expect(generated.stderr).toContain('animal-store/error-codes');
    expect(generated.stderr).toContain('The code unexplained of the enum has no entry in `x-error-codes`.');
    expect(await workspace.snapshotGenerated()).toEqual(before);
  });
});

describe('a body limit edited in the contract alone', { timeout: 60_000 }, () => {
  let workspace: Workspace;

  beforeAll(async () => {
    workspace = await createWorkspace();
    await workspace.editYaml('openapi/paths/pets.yaml', (pathItem) => {
      pathItem.post['x-max-body-bytes'] = 1000;
    });
    const generated = await workspace.generate();
    expect(generated.code, generated.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await workspace.dispose();
  });

  it("is what the operation's description in the published contract and its docs says", async () => {
    const bundle = JSON.parse(await workspace.read('generated/openapi.json')) as {
      paths: Record<string, Record<string, { description: string }>>;
    };
    const description = bundle.paths['/pets']?.post?.description;
    expect(description).toContain('of at most 1,000 bytes.');
    expect(description).not.toContain('<!-- x-max-body-bytes -->');
    expect(description).not.toContain('KiB');
  });
});

/** A version no release has, so it can only have come from the edit. */
/** Another version of the same major one, the `/v<major>` the servers end with (animal-store/version-segment). */
const EDITED_VERSION = `${loadContract().document.info.version.split('.')[0]}.31.5`;

describe('the version edited in the contract alone', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  let manifest: string;

  beforeAll(async () => {
    workspace = await createWorkspace();
    manifest = await readFile(contractLocations(repoRoot).clientManifest, 'utf8');
    await mkdir(path.dirname(workspace.locations.clientManifest), { recursive: true });
    await writeFile(workspace.locations.clientManifest, manifest);
    await workspace.editYaml('openapi/openapi.yaml', (document) => {
      document.info.version = EDITED_VERSION;
    });
    const generated = await workspace.generate();
    expect(generated.code, generated.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await workspace.dispose();
  });

  it("is what the description's version sentence in the published contract and its docs says", async () => {
    const bundle = JSON.parse(await workspace.read('generated/openapi.json')) as { info: { description: string } };
    expect(bundle.info.description).toContain(EDITED_VERSION);
    expect(bundle.info.description).not.toContain(VERSION_MARKER);
  });

  it("is the client package's version after npm run generate, the rest of its manifest as it was", async () => {
    const written = await readFile(workspace.locations.clientManifest, 'utf8');
    expect(JSON.parse(written)).toEqual({ ...JSON.parse(manifest), version: EDITED_VERSION });
    expect(written.split('\n').length).toBe(manifest.split('\n').length);
    expect((await workspace.generate('--check')).code).toBe(0);
  });

  it('makes a client package at another version fail the check, naming it', async () => {
    const current = await readFile(workspace.locations.clientManifest, 'utf8');
    await writeFile(workspace.locations.clientManifest, manifest);
    const check = await workspace.generate('--check');
    await writeFile(workspace.locations.clientManifest, current);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(
      `client/package.json says version ${JSON.parse(manifest).version}, not the contract's ${EDITED_VERSION}`,
    );
  });
});

describe("a 503's Retry-After, edited in the contract alone", () => {
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = await createWorkspace();
  }, 60_000);
  afterAll(async () => {
    await workspace.dispose();
  });

  it('is the value generated/rules.ts gives the code after npm run generate', async () => {
    await workspace.editYaml('openapi/components/headers/Retry-After-Unavailable.yaml', (header) => {
      header['x-retry-after-seconds'] = 9;
    });
    const generated = await workspace.generate();
    expect(generated.code, generated.stderr).toBe(0);
    expect(await workspace.read('generated/rules.ts')).toContain('export const UNAVAILABLE_RETRY_AFTER_SECONDS = 9;');
  });

  it('fails npm run generate, naming the extension, when the contract no longer states it', async () => {
    await workspace.editYaml('openapi/components/headers/Retry-After-Unavailable.yaml', (header) => {
      delete header['x-retry-after-seconds'];
    });
    const generated = await workspace.generate();
    expect(generated.code).toBe(1);
    expect(generated.stderr).toContain('Retry-After-Unavailable must set x-retry-after-seconds');
  });
});
