// The README's rate-limit table, kept between two markers and rewritten from the contract by
// `npm run generate`; `--check` fails while it says something else.
import { readFile, writeFile } from 'node:fs/promises';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { ContractLocations } from './locations.ts';
import { rulesProse } from './rules-prose.ts';

const START =
  '<!-- x-rate-limits: written by npm run generate from the contract; edit the contract, not this table -->';
const END = '<!-- end of x-rate-limits -->';

/** The README as it should read, or undefined when it has no generated section (or no README exists). */
async function expectedReadme(
  locations: ContractLocations,
  document: unknown,
): Promise<{ current: string; expected: string } | undefined> {
  const current = await readFile(locations.readme, 'utf8').catch(() => undefined);
  if (current === undefined) return undefined;
  const start = current.indexOf(START);
  const end = current.indexOf(END, start);
  if (start < 0 || end < 0) return undefined;
  const prose = rulesProse(rateLimitRules(document as never));
  return { current, expected: `${current.slice(0, start + START.length)}\n${prose}\n${current.slice(end)}` };
}

/** Whether the README's generated section is out of date. */
export async function readmeIsStale(locations: ContractLocations, document: unknown): Promise<boolean> {
  const readme = await expectedReadme(locations, document);
  return readme !== undefined && readme.current !== readme.expected;
}

/** Rewrites the README's generated section when it is out of date; true when it wrote. */
export async function writeReadme(locations: ContractLocations, document: unknown): Promise<boolean> {
  const readme = await expectedReadme(locations, document);
  if (readme === undefined || readme.current === readme.expected) return false;
  await writeFile(locations.readme, readme.expected, 'utf8');
  return true;
}
