import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderCache } from '../../../scripts/docs/render-cache.ts';

describe('renderCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'render-cache-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives back the page rendered from exactly the same inputs, and nothing for any other', async () => {
    const cache = renderCache(path.join(dir, 'pages'));
    expect(await cache.get(['2.77.0', '{"a":1}'])).toBeUndefined();

    await cache.set(['2.77.0', '{"a":1}'], '<html>a</html>');

    expect(await cache.get(['2.77.0', '{"a":1}'])).toBe('<html>a</html>');
    expect(await cache.get(['2.77.1', '{"a":1}'])).toBeUndefined();
    expect(await cache.get(['2.77.0', '{"a":2}'])).toBeUndefined();
    // The same bytes split otherwise are other inputs.
    expect(await cache.get(['2.77.0{"a":1}'])).toBeUndefined();
    expect(await cache.get([Buffer.from('2.77.0'), Buffer.from('{"a":1}')])).toBe('<html>a</html>');
  });

  it('keeps 32 pages at most, forgetting the least recently used', async () => {
    const cache = renderCache(dir);
    for (let page = 0; page < 32; page += 1) await cache.set([String(page)], `page ${page}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await cache.get(['0'])).toBe('page 0');

    await cache.set(['32'], 'page 32');

    expect(await readdir(dir)).toHaveLength(32);
    expect(await cache.get(['32'])).toBe('page 32');
    expect(await cache.get(['0'])).toBe('page 0');
    // One of those kept before page 0 was used again (kept within the same millisecond, any of them).
    const forgotten = [];
    for (let page = 1; page < 32; page += 1) if ((await cache.get([String(page)])) === undefined) forgotten.push(page);
    expect(forgotten).toHaveLength(1);
  });
});
