// The compressed forms of the docs files: written beside each file by `npm run docs`, so the
// server only reads them, and made by the server itself for a file that has none (a page written
// by hand, or by an older build).
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** What a compressed form's file name adds to its file's: `index.html.br`, `index.html.gz`. */
export const PRECOMPRESSED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** Zlib runs on the thread pool, off the event loop. */
export const compress: Record<Encoding, (content: Buffer) => Promise<Buffer>> = {
  // Brotli's quality 9 is within a tenth of 11 on the docs page at a fifteenth of the time.
  br: (content) =>
    promisify(brotliCompress)(content, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  gzip: (content) => promisify(gzip)(content, { level: 9 }),
};

/** Text gains from compression; the images (PNG) are compressed already. */
export function isCompressible(file: string): boolean {
  return /\.(html|json|yaml|md|txt)$/i.test(file);
}

/**
 * In the docs folder while `npm start` builds it in the background: the builder's process id. The
 * server answers /docs/ with 503 and Retry-After until the page is written. A dot name, never served.
 */
export const DOCS_BUILDING_MARKER = '.building';
