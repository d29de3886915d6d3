// Consumers feed generated/openapi.json to their own generators. The validators three of them
// generate (hey-api's zod plugin, orval's zod client, openapi-zod-client; pinned dev dependencies,
// run offline from the file) must agree with the service on every name of the table below.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const bin = (name: string) => join(REPOSITORY_ROOT, 'node_modules/.bin', name);
const contractFile = join(REPOSITORY_ROOT, 'generated/openapi.json');
const run = promisify(execFile);

interface SafeParser {
  safeParse(value: unknown): { success: boolean };
}
type Validator = (name: string) => boolean;

const accepted: ReadonlyArray<[string, string]> = [
  ['a plain name', 'Rex'],
  ['a lower-case name', 'bella'],
  ['a name with capitals', 'Pepper'],
  ['accented letters', 'Zoë Renée'],
  ['CJK characters', '小白'],
  ['an emoji', '🐶'],
  ['an emoji sequence joined by ZWJ', '🐕\u200D🦺'],
  ['a letter with a combining mark', 'e\u0301'],
  ['a visible character beyond U+FFFF that shares its high surrogate with invisible ones', '\u{1D11E}'],
  ['white space around a visible character', ' Rex\u00A0'],
  ['a zero-width space before a visible character', '\u200BRex'],
  ['a tag character before a visible character', '\u{E0020}x'],
  ['a line separator between visible characters', 'a\u2028b'],
  ['100 characters', 'a'.repeat(100)],
  ['100 code points of letters and combining marks', 'e\u0301'.repeat(50)],
  ['100 emoji (200 UTF-16 code units)', '🐶'.repeat(100)],
  // Beyond U+FFFF every character counts as visible, format and default-ignorable ones too: the
  // rule as every language's pattern engine can read it (product decisions, fifth round).
  ['a tag space beyond U+FFFF (Cf)', '\u{E0020}'],
  ['a supplementary variation selector (default-ignorable)', '\u{E0100}'],
  ['a musical symbol format character (Cf)', '\u{1D173}'],
  ['an Egyptian hieroglyph format control (Cf)', '\u{13430}'],
  ['a shorthand format control (Cf)', '\u{1BCA0}'],
  ['a Kaithi number sign (Cf)', '\u{110BD}'],
  ['invisible characters up to U+FFFF around one beyond', ' \u200B\u{E0020}\u2800'],
];

const refused: ReadonlyArray<[string, string]> = [
  ['an empty name', ''],
  ['a space', ' '],
  ['a no-break space', '\u00A0'],
  ['an ideographic space', '\u3000'],
  ['a line separator', '\u2028'],
  ['a paragraph separator', '\u2029'],
  ['a zero-width space (Cf)', '\u200B'],
  ['a zero-width joiner (Cf)', '\u200D'],
  ['a word joiner (Cf)', '\u2060'],
  ['a byte order mark (Cf)', '\uFEFF'],
  ['a soft hyphen (Cf)', '\u00AD'],
  ['a right-to-left mark (Cf)', '\u200F'],
  ['a Hangul filler (default-ignorable)', '\u3164'],
  ['a Hangul choseong filler (default-ignorable)', '\u115F'],
  ['a combining grapheme joiner (default-ignorable)', '\u034F'],
  ['a variation selector (default-ignorable)', '\uFE0F'],
  ['a Braille pattern blank', '\u2800'],
  ['only invisible characters of every kind up to U+FFFF', ' \u200B\u2028\u3164\u2800\uFEFF'],
  ['a NUL', 'Rex\u0000'],
  ['a line feed', 'Re\nx'],
  ['a tab', '\tRex'],
  ['a DEL', 'Rex\u007F'],
  ['a next-line control (C1)', 'Rex\u0085'],
  ['101 characters', 'a'.repeat(101)],
  ['101 emoji', '🐶'.repeat(101)],
];

let workDir: string;
let app: TestApp;
const generated: Record<string, Validator> = {};

// A valid body but for its name: a refusal must be about the name.
const newPet = (name: string) => ({ name, categoryId: 1 });

async function serverAccepts(name: string): Promise<boolean> {
  const response = await app.request('/v1/pets', { method: 'POST', json: newPet(name) });
  if (response.status === 201) return true;
  const body = (await response.json()) as { details?: Array<{ name: string }> };
  if (response.status !== 400 || body.details?.[0]?.name !== 'name')
    throw new Error(`createPet answered ${response.status} ${JSON.stringify(body)}`);
  return false;
}

beforeAll(async () => {
  app = await createTestApp();
  // Inside the project, so that the generated modules import the project's pinned zod.
  workDir = await mkdtemp(join(REPOSITORY_ROOT, 'node_modules/.cache-interop-'));
  // openapi-zod-client writes into a folder that must exist.
  await mkdir(join(workDir, 'openapi-zod-client'));
  await Promise.all([
    run(bin('openapi-ts'), ['-i', contractFile, '-o', join(workDir, 'hey-api'), '-p', 'zod']),
    run(bin('orval'), ['--input', contractFile, '--output', join(workDir, 'orval/api.ts'), '--client', 'zod']),
    // Its schemas alone: the whole client imports @zodios/core, which wants another zod than the project's.
    run(bin('openapi-zod-client'), [
      contractFile,
      '-o',
      join(workDir, 'openapi-zod-client/api.ts'),
      '-t',
      join(REPOSITORY_ROOT, 'node_modules/openapi-zod-client/src/templates/schemas-only.hbs'),
    ]),
  ]);
  const heyApi = (await import(join(workDir, 'hey-api/zod.gen.ts'))) as { zNewPet: SafeParser };
  const orval = (await import(join(workDir, 'orval/api.ts'))) as { CreatePetBody: SafeParser };
  generated['hey-api zod'] = (name) => heyApi.zNewPet.safeParse(newPet(name)).success;
  generated['orval zod'] = (name) => orval.CreatePetBody.safeParse(newPet(name)).success;
  const zodClient = (await import(join(workDir, 'openapi-zod-client/api.ts'))) as { schemas: { NewPet: SafeParser } };
  generated['openapi-zod-client'] = (name) => zodClient.schemas.NewPet.safeParse(newPet(name)).success;
}, 120_000);

afterAll(async () => {
  app?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('createPet name, in validators generated from the contract', () => {
  it.each(accepted)('accepts %s, as the service does', async (_, name) => {
    expect(await serverAccepts(name)).toBe(true);
    for (const [generator, validates] of Object.entries(generated))
      expect({ generator, valid: validates(name) }).toEqual({ generator, valid: true });
  });

  it.each(refused)('refuses %s, as the service does', async (_, name) => {
    expect(await serverAccepts(name)).toBe(false);
    for (const [generator, validates] of Object.entries(generated))
      expect({ generator, valid: validates(name) }).toEqual({ generator, valid: false });
  });
});
