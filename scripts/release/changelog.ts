// CHANGELOG.md, in the Keep a Changelog style: an `## [Unreleased]` section that `npm run
// changelog` writes from the changes since the latest release (changelog-entry.ts) and authors may
// edit, then one section per release, which `npm run release` makes of the Unreleased text (or,
// when that is empty, of the changes themselves).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContractLocations } from '../pipeline/locations.ts';

const UNRELEASED = '## [Unreleased]';
/** Keep a Changelog's headings, in its order. */
const HEADINGS = ['### Added', '### Changed', '### Deprecated', '### Removed', '### Fixed', '### Security'];

const HEADER = `# Changelog

All notable changes to the Animal Store API contract (\`openapi/\`). The format follows
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/) and the versions follow
[Semantic Versioning](https://semver.org/spec/v2.0.0.html): a new major version (and base path)
for a change that breaks the clients of a stable operation, a minor version for additions, a
patch version for documentation only. \`npm run changelog\` writes the Unreleased section from
the changes since the latest release; edit it before \`npm run release\`, which turns it into the
release's entry. The released contracts are in \`releases/\`.
`;

export function changelogFile(locations: ContractLocations): string {
  return path.join(locations.root, 'CHANGELOG.md');
}

export async function readChangelog(locations: ContractLocations): Promise<string> {
  return readFile(changelogFile(locations), 'utf8').catch(() => `${HEADER}\n${UNRELEASED}\n`);
}

/** The text of the Unreleased section, trimmed; empty when it says nothing yet. */
export function unreleasedText(changelog: string): string {
  const start = changelog.indexOf(UNRELEASED);
  if (start < 0) return '';
  const rest = changelog.slice(start + UNRELEASED.length);
  const end = rest.search(/^## \[/m);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

/** What merging a drafted entry into the Unreleased section did. */
export interface MergedUnreleased {
  body: string;
  /** The drafted lines added: their subject is nowhere in what was there. */
  added: string[];
  /** The drafted lines left out because what was there names their subject already. */
  covered: string[];
}

/**
 * The Unreleased section with the drafted entry merged in, never losing a word a person wrote:
 * each drafted line whose subject (`GET /widgets`, `NewPet.nickname`) the section does not name
 * yet is added at the end of its heading's list (the heading added, in Keep a Changelog's order,
 * when missing); a line whose subject it names is left to the author's words.
 */
export function mergeUnreleased(present: string, drafted: string): MergedUnreleased {
  const added: string[] = [];
  const covered: string[] = [];
  let body = present.trim();
  for (const { heading, item } of draftedItems(drafted)) {
    const subject = /^- (?:\*\*Breaking\*\*: )?(`[^`]+`)/.exec(item)?.[1];
    if (body.includes(item) || (subject !== undefined && body.includes(subject))) {
      if (!body.includes(item)) covered.push(item);
      continue;
    }
    body = withItem(body, heading, item);
    added.push(item);
  }
  return { body, added, covered };
}

/** Each list item of a drafted entry with the heading it stands under. */
function draftedItems(drafted: string): Array<{ heading: string; item: string }> {
  const items: Array<{ heading: string; item: string }> = [];
  let heading = '';
  for (const line of drafted.split('\n')) {
    if (line.startsWith('### ')) heading = line;
    else if (line.startsWith('- ')) items.push({ heading, item: line });
  }
  return items;
}

function withItem(body: string, heading: string, item: string): string {
  const lines = body === '' ? [] : body.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) {
    const order = HEADINGS.indexOf(heading);
    const next = lines.findIndex((line) => HEADINGS.indexOf(line) > order);
    const block = [heading, '', item, ''];
    if (next < 0) return [...lines, ...(lines.length > 0 ? [''] : []), ...block].join('\n').trim();
    lines.splice(next, 0, ...block);
    return lines.join('\n').trim();
  }
  // The heading's list ends before the next heading; trailing blank lines stay after the item.
  let end = lines.findIndex((line, index) => index > at && line.startsWith('### '));
  if (end < 0) end = lines.length;
  while (end > at + 1 && lines[end - 1]?.trim() === '') end -= 1;
  lines.splice(end, 0, item);
  return lines.join('\n').trim();
}

/** The changelog with its Unreleased section replaced by `body`. */
export function withUnreleased(changelog: string, body: string): string {
  const start = changelog.indexOf(UNRELEASED);
  const section = `${UNRELEASED}\n\n${body ? `${body}\n\n` : ''}`;
  if (start < 0) {
    const firstEntry = changelog.search(/^## \[/m);
    if (firstEntry < 0) return `${changelog.trimEnd()}\n\n${section}`.trimEnd().concat('\n');
    return `${changelog.slice(0, firstEntry)}${section}${changelog.slice(firstEntry)}`;
  }
  const rest = changelog.slice(start + UNRELEASED.length);
  const end = rest.search(/^## \[/m);
  return `${changelog.slice(0, start)}${section}${end < 0 ? '' : rest.slice(end)}`.trimEnd().concat('\n');
}

/** The changelog with a new, empty Unreleased section and `body` as the entry of `version`. */
export function withRelease(changelog: string, version: string, date: string, body: string): string {
  const released = withUnreleased(changelog, '');
  const start = released.indexOf(UNRELEASED) + UNRELEASED.length;
  return `${released.slice(0, start)}\n\n## [${version}] - ${date}\n\n${body}\n${released.slice(start).replace(/^\n+/, '\n')}`
    .trimEnd()
    .concat('\n');
}

export async function writeChangelog(locations: ContractLocations, content: string): Promise<void> {
  await writeFile(changelogFile(locations), content, 'utf8');
}
