// Redocly's rendering of a page is the slow part of `npm run docs` (a process of its own, seconds of
// CPU), and most builds render a contract rendered before: `npm start` after a checkout that only
// touched the files, a release page, the same contract in every copy the tests make. So a page is
// kept under node_modules/.cache (the usual place for tools' caches, which `npm ci` empties), named
// by a digest of everything that decides it, and rendered again only when any of that changes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Enough for the draft and a few releases of each of several contracts being worked on. */
const KEPT_PAGES = 32;

export interface RenderCache {
  /** The page rendered before from exactly these `inputs`, if it is kept. */
  get(inputs: readonly (string | Buffer)[]): Promise<string | undefined>;
  /** Keeps `page` as the rendering of `inputs`, and forgets the least recently used beyond the bound. */
  set(inputs: readonly (string | Buffer)[], page: string): Promise<void>;
}

export function renderCache(dir: string): RenderCache {
  const fileOf = (inputs: readonly (string | Buffer)[]) => {
    const digest = createHash('sha256');
    // Each input's length first, so that no two lists of inputs hash alike.
    for (const input of inputs) digest.update(`${Buffer.byteLength(input)}:`).update(input);
    return path.join(dir, `${digest.digest('hex')}.html`);
  };
  return {
    async get(inputs) {
      const file = fileOf(inputs);
      const page = await readFile(file, 'utf8').catch(() => undefined);
      // Used again: the last to be forgotten.
      if (page !== undefined) await utimes(file, new Date(), new Date()).catch(() => {});
      return page;
    },
    async set(inputs, page) {
      await mkdir(dir, { recursive: true });
      const file = fileOf(inputs);
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, page);
      await rename(temporary, file);
      await forgetBeyond(dir, KEPT_PAGES);
    },
  };
}

async function forgetBeyond(dir: string, kept: number): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.html'));
  if (names.length <= kept) return;
  const pages: Array<{ name: string; mtimeMs: number }> = [];
  for (const name of names) {
    const found = await stat(path.join(dir, name)).catch(() => undefined);
    if (found) pages.push({ name, mtimeMs: found.mtimeMs });
  }
  pages.sort((a, b) => a.mtimeMs - b.mtimeMs);
  await Promise.all(pages.slice(0, pages.length - kept).map(({ name }) => rm(path.join(dir, name), { force: true })));
}
