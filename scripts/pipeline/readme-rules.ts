// The README's tables of the contract's rules (the rate limits, the error codes), each kept
// between two markers and rewritten from the contract by `npm run generate`; `--check` fails while
// one says something else.
import { readFile, writeFile } from 'node:fs/promises';
import { errorCodes } from '../../contract/error-codes.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { ContractLocations } from './locations.ts';
import { errorCodeTable, rulesProse } from './rules-prose.ts';

interface ReadmeSection {
  /** The `x-` rule the section is written from, which names its markers. */
  rule: string;
  /** What the section is, for people: "the README's ... does not match the contract". */
  title: string;
  prose(document: unknown): string;
}

const SECTIONS: ReadmeSection[] = [
  {
    rule: 'x-rate-limits',
    title: 'rate-limit table',
    prose: (document) => rulesProse(rateLimitRules(document as never)),
  },
  {
    rule: 'x-error-codes',
    title: 'error-code table',
    prose: (document) => errorCodeTable(errorCodes(document as object)),
  },
];

const startMarker = ({ rule }: ReadmeSection) =>
  `<!-- ${rule}: written by npm run generate from the contract; edit the contract, not this table -->`;
const endMarker = ({ rule }: ReadmeSection) => `<!-- end of ${rule} -->`;

/**
 * The README as it should read, with the title of each generated section that differs, or
 * undefined when no README exists. A section whose markers the README lacks is left alone.
 */
async function expectedReadme(
  locations: ContractLocations,
  document: unknown,
): Promise<{ current: string; expected: string; stale: string[] } | undefined> {
  const current = await readFile(locations.readme, 'utf8').catch(() => undefined);
  if (current === undefined) return undefined;
  let expected = current;
  const stale: string[] = [];
  for (const section of SECTIONS) {
    const start = expected.indexOf(startMarker(section));
    const end = expected.indexOf(endMarker(section), start);
    if (start < 0 || end < 0) continue;
    const contentStart = start + startMarker(section).length;
    const written = `\n${section.prose(document)}\n`;
    if (expected.slice(contentStart, end) === written) continue;
    stale.push(section.title);
    expected = `${expected.slice(0, contentStart)}${written}${expected.slice(end)}`;
  }
  return { current, expected, stale };
}

/** The generated sections of the README that are out of date, by title (`rate-limit table`...). */
export async function staleReadmeSections(locations: ContractLocations, document: unknown): Promise<string[]> {
  return (await expectedReadme(locations, document))?.stale ?? [];
}

/** Rewrites the README's generated sections when one is out of date; true when it wrote. */
export async function writeReadme(locations: ContractLocations, document: unknown): Promise<boolean> {
  const readme = await expectedReadme(locations, document);
  if (readme === undefined || readme.current === readme.expected) return false;
  await writeFile(locations.readme, readme.expected, 'utf8');
  return true;
}
