// Derives the contract's PetName `pattern` from the name rule of the product decisions, in the
// subset of ECMA-262 that the generators consumers use read the same way with or without the `u`
// flag (orval and hey-api compile it without the flag; Ajv and the service with it):
// - no `\p{...}` classes: without the flag `\p{Cf}` is the letters p, {, C, f;
// - no escape of a line terminator: hey-api writes `\uXXXX` escapes into a regex literal as the
//   characters themselves, and U+2028 ends the literal. The classes list ranges of visible
//   characters and take U+2028 and U+2029 in from inside a range, never by name;
// - no escape of a lone surrogate (written out as a character it becomes U+FFFD), and no range
//   with an end beyond U+FFFF (without the flag it is a range between surrogates, out of order).
//   A character beyond U+FFFF is named only as a whole surrogate pair, outside ranges, which both
//   readings take as that one character.
// `--write` puts the pattern into openapi/components/schemas/PetName.yaml.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The rule, with this Node's Unicode data: a name is made of anything but control characters and
// holds at least one character that is neither white space, format (Cf), default-ignorable, nor
// U+2800 BRAILLE PATTERN BLANK (which renders as nothing).
const CONTROL = /^\p{Cc}$/u;
const INVISIBLE = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]$/u;

const isVisible = (character: string) => !CONTROL.test(character) && !INVISIBLE.test(character);

const escaped = (codePoint: number): string =>
  String.fromCodePoint(codePoint)
    .split('')
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
    .join('');

/** The visible characters up to U+FFFF, surrogates aside, as ranges of a class. */
function visibleBmpRanges(): string {
  const ranges: string[] = [];
  let start: number | undefined;
  for (let codePoint = 0; codePoint <= 0x10000; codePoint++) {
    const visible =
      codePoint <= 0xffff && (codePoint < 0xd800 || codePoint > 0xdfff) && isVisible(String.fromCharCode(codePoint));
    if (visible && start === undefined) start = codePoint;
    if (!visible && start !== undefined) {
      const end = codePoint - 1;
      ranges.push(start === end ? escaped(start) : `${escaped(start)}-${escaped(end)}`);
      start = undefined;
    }
  }
  return ranges.join('');
}

const firstOfLead = (lead: number) => 0x10000 + ((lead - 0xd800) << 10);

/**
 * The invisible characters beyond U+FFFF, as alternatives. Where every character of a high
 * surrogate is invisible (U+E0000 to U+E0FFF), the run of such surrogates is one alternative:
 * `(?![\u0000-A])[\u0000-B]`, with A the character before the run and B its last one, both
 * written as pairs. With the `u` flag it is the code points after A up to B; without it, the
 * ranges end at the high halves, so it is one of the run's high surrogates. Any other invisible
 * character is named whole, as a pair.
 */
function invisibleAstral(): { alternatives: string; wholeLeads: boolean } {
  const alternatives: string[] = [];
  let runStart: number | undefined;
  const closeRun = (lead: number) => {
    if (runStart === undefined) return;
    alternatives.push(`(?![\\u0000-${escaped(firstOfLead(runStart) - 1)}])[\\u0000-${escaped(firstOfLead(lead) - 1)}]`);
    runStart = undefined;
  };
  for (let lead = 0xd800; lead <= 0xdc00; lead++) {
    const characters = lead < 0xdc00 ? Array.from({ length: 1024 }, (_, low) => firstOfLead(lead) + low) : [];
    const invisible = characters.filter((codePoint) => !isVisible(String.fromCodePoint(codePoint)));
    if (characters.length > 0 && invisible.length === characters.length) {
      // The character before the run must be beyond U+FFFF, so that its escape is a pair.
      if (lead === 0xd800) throw new Error('U+10000 is invisible: the run cannot be written');
      runStart ??= lead;
    } else {
      closeRun(lead);
      alternatives.push(...invisible.map(escaped));
    }
  }
  return { alternatives: alternatives.join('|'), wholeLeads: alternatives.some((item) => item.startsWith('(?!')) };
}

// Without the `u` flag: a low surrogate (U+DC00 to U+DFFE), the end of a pair whose high half an
// invisible alternative took. With the flag, the lookahead refuses every character. (Without the
// flag, U+DFFF slips through: the four unassigned U+E03FF, U+E07FF, U+E0BFF, U+E0FFF read as
// visible there; with the flag, as the service reads it, the pattern is exact.)
const LOW_HALF = String.raw`(?![\u0000-\uDBFF\uDFFF])[^\u0000-\uD7FF\uE000-\uFFFF]`;
// With the flag, any character beyond U+FFFF; without it, a high surrogate (the first class
// reads as U+0000 to U+DBFF and U+DFFF without the flag, everything with it).
const ASTRAL = String.raw`(?=[\u0000-\uDBFF\uDFFF])[^\u0000-\uD7FF\uE000-\uFFFF]`;

/**
 * Leading invisible characters, one visible character, then anything but control characters.
 * The invisible and visible alternatives are disjoint, so matching stays linear in the length.
 */
export function derivePetNamePattern(): string {
  const visibleBmp = `[${visibleBmpRanges()}]`;
  const astral = invisibleAstral();
  const invisible = [
    String.raw`(?!${visibleBmp})[\u0020\u00A0-\uD7FF\uE000-\uFFFF]`,
    astral.alternatives,
    ...(astral.wholeLeads ? [LOW_HALF] : []),
  ].join('|');
  const visible = `${visibleBmp}|(?!${astral.alternatives})${ASTRAL}`;
  return String.raw`^(?:${invisible})*(?:${visible})[^\u0000-\u001F\u007F-\u009F]*$`;
}

const PET_NAME_SCHEMA = fileURLToPath(new URL('../../openapi/components/schemas/PetName.yaml', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pattern = derivePetNamePattern();
  if (process.argv.includes('--write')) {
    const yaml = readFileSync(PET_NAME_SCHEMA, 'utf8');
    writeFileSync(
      PET_NAME_SCHEMA,
      yaml.replace(/^pattern: .*$/m, () => `pattern: '${pattern}'`),
    );
  } else {
    process.stdout.write(`${pattern}\n`);
  }
}
