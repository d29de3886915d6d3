// The app's code sets the headers of an answer with setHeader (core/middleware/answer-headers.ts):
// an answer made by `answer` carries those, and would silently lack one set with Hono's `c.header`.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';

const ROOMS = ['core', 'server', 'mock'];
const HOME = 'core/middleware/answer-headers.ts';
/** A call of a context's `header` (`c.header(`), not of a request's (`c.req.header(`). */
const CONTEXT_HEADER_CALL = /(?<!\breq)\.header\(/;

describe('the headers of an answer', () => {
  it('are set with setHeader, never with c.header, outside answer-headers.ts', async () => {
    const setters: string[] = [];
    for (const room of ROOMS) {
      for (const entry of await readdir(path.join(REPOSITORY_ROOT, room), { recursive: true })) {
        const file = path.join(room, entry);
        if (!entry.endsWith('.ts') || file === HOME) continue;
        if (CONTEXT_HEADER_CALL.test(await readFile(path.join(REPOSITORY_ROOT, file), 'utf8'))) setters.push(file);
      }
    }
    expect(setters).toEqual([]);
  });
});
