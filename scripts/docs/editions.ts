// The published docs: one folder, dist/docs/, with the working draft at its top, each release in
// a folder of its own, and the changelog. Every page carries the same switcher between them, with
// addresses relative to the page, so the folder works opened from disk as well as served.

import { LLMS_TXT } from './markdown-pages.ts';

export interface Edition {
  /** `draft`, or the release's version. */
  name: string;
  /** What the switcher says: `1.1.0 (draft)`, `1.0.0`. */
  label: string;
  /** The page, relative to dist/docs/: `index.html`, `1.0.0/index.html`. */
  page: string;
}

export const CHANGELOG_PAGE = 'changelog.html';

/** The draft first, then the releases, newest first. */
export function editions(draftVersion: string, releaseNames: readonly string[]): Edition[] {
  return [
    { name: 'draft', label: `${draftVersion} (draft)`, page: 'index.html' },
    ...[...releaseNames].reverse().map((name) => ({ name, label: name, page: `${name}/index.html` })),
  ];
}

/** A file of dist/docs/ (`changelog.html`) as addressed from the page at `page` (`1.0.0/index.html`): `../changelog.html`. */
export function fromPage(page: string, file: string): string {
  return `${'../'.repeat(page.split('/').length - 1)}${file}`;
}

/** The switcher for the page at `current` (relative to dist/docs/): one select, the changelog, and `llms.txt`. */
function switcherHtml(all: readonly Edition[], current: string): string {
  const options = all
    .map(
      (edition) =>
        `<option value="${fromPage(current, edition.page)}"${edition.page === current ? ' selected' : ''}>${escapeHtml(edition.label)}</option>`,
    )
    .join('');
  const changelog = fromPage(current, CHANGELOG_PAGE);
  return (
    `<nav id="docs-versions" aria-label="API versions">` +
    `<label>Version <select id="docs-version" onchange="location.href=this.value">${options}</select></label>` +
    `<a href="${changelog}"${current === CHANGELOG_PAGE ? ' aria-current="page"' : ''}>Changelog</a>` +
    // Beside each page (the changelog's: the draft's): the same docs as Markdown, for agents.
    `<a href="${LLMS_TXT}" type="text/plain" title="These docs as Markdown, for agents">${LLMS_TXT}</a></nav>`
  );
}

/**
 * Styles of the switcher, a bar above Redoc's layout that scrolls away with the page, so it covers
 * nothing; Redoc's navigation, a column as high as the window, gives up the bar's height so that
 * its bottom row (theme and layout buttons) is not pushed out of the window. Styles of the
 * Markdown tables of the descriptions: a code in a table cell (an error code such as
 * `unauthorized`) is one word, never broken across lines. Redoc caps a
 * badge in the navigation at 90 pixels, which cuts "Experimental" to "Experimen…": there it takes
 * the width of its word.
 */
const PAGE_STYLE = `<style id="docs-extras">
#docs-versions{position:relative;z-index:1000;display:flex;justify-content:flex-end;gap:12px;align-items:center;
box-sizing:border-box;height:34px;padding:0 16px;background:#fff;border-bottom:1px solid #ccc;font:14px sans-serif}
.menu-content{height:calc(100vh - 34px)!important}
#docs-versions select{font:inherit}
table.md td code,table.md th code{white-space:nowrap;word-break:keep-all;overflow-wrap:normal}
[data-testid="menu-item-label"] [data-component-name="Tag/Tag"]{max-width:none}
</style>`;

/** The page with the styles in its head and the switcher at the start of its body. */
export function withSwitcher(html: string, all: readonly Edition[], current: string): string {
  return html
    .replace('</head>', `${PAGE_STYLE}</head>`)
    .replace(/<body([^>]*)>/, (body) => `${body}${switcherHtml(all, current)}`);
}

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
