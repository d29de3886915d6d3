// The catalogue of errors (core/errors.ts, `errors`) is the only way an Error answer is made, so
// that each case has one sentence, which the contract's examples say too
// (test/conformance/error-examples.test.ts). A `new ApiError(` or an Error body built anywhere
// else would be a second wording no example is checked against.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';

const ROOMS = ['contract', 'core', 'node', 'server', 'mock', 'client', 'fuzz', 'bench'];
const CATALOGUE = 'core/errors.ts';
/** The HTTP layer answers below the app (408, 431, 505: statuses the contract has no code of) with the same body. */
const HTTP_LAYER = 'node/http/error-answers.ts';

async function sources(): Promise<Array<{ file: string; text: string }>> {
  const files: string[] = [];
  for (const room of ROOMS) {
    for (const entry of await readdir(path.join(REPOSITORY_ROOT, room), { recursive: true })) {
      if (entry.endsWith('.ts') && !entry.includes('node_modules') && !entry.includes('dist'))
        files.push(path.join(room, entry));
    }
  }
  return Promise.all(
    files.map(async (file) => ({ file, text: await readFile(path.join(REPOSITORY_ROOT, file), 'utf8') })),
  );
}

describe('the catalogue of errors', () => {
  it('is the only place an ApiError is made', async () => {
    const makers = (await sources()).filter(({ file, text }) => file !== CATALOGUE && text.includes('new ApiError('));
    expect(makers.map(({ file }) => file)).toEqual([]);
  });

  it('is the only place an Error body is written, besides the HTTP layer below the app', async () => {
    const writers = (await sources()).filter(
      ({ file, text }) => file !== CATALOGUE && file !== HTTP_LAYER && /\berrorBody\(/.test(text),
    );
    expect(writers.map(({ file }) => file)).toEqual([]);
  });
});
