// Derives the contract's PetName `pattern` from the name rule of the product decisions, in JSON
// Schema's interoperable subset of regular expressions, so that JavaScript (with and without the
// `u` flag: orval and hey-api compile without it, Ajv and the service with it), Python's `re`, Go's
// `regexp` (RE2) and Java read it alike:
// - no lookaround, backreferences or `\u`, `\x`, `\p` escapes: RE2 has no lookaround, and without
//   the `u` flag `\p{Cf}` is the letters p, {, C, f. Characters are written as themselves;
// - no line terminator written into the pattern: hey-api writes the pattern into a regex literal,
//   which U+2028 would end. Classes name line terminators only from inside a range;
// - no character beyond U+FFFF and no surrogate named: JavaScript without the flag reads a string as
//   UTF-16 code units, every other reader as code points. The one class that reaches beyond U+FFFF
//   is the complement of the characters up to U+FFFF: it takes a whole character beyond U+FFFF in
//   the readers of code points, either of its surrogates in JavaScript without the flag.
// - a plain group, not `(?:`: dk.brics.automaton (Specmatic's generator) reads `(?:` as characters.
// `--write` puts the pattern into openapi/components/schemas/PetName.yaml.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The rule, with this Node's Unicode data: a name is made of anything but control characters and
// holds at least one visible character: beyond U+FFFF any character, up to U+FFFF one that is
// neither white space, format (Cf), default-ignorable, nor U+2800 BRAILLE PATTERN BLANK (which
// renders as nothing).
const CONTROL = /^\p{Cc}$/u;
const INVISIBLE = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]$/u;
const LAST_BMP = 0xffff;

/** The name rule itself, which the pattern says: no control character, and a visible one. */
export function followsNameRule(name: string): boolean {
  const characters = Array.from(name);
  return (
    !characters.some((character) => CONTROL.test(character)) &&
    characters.some((character) => (character.codePointAt(0) as number) > LAST_BMP || !INVISIBLE.test(character))
  );
}
const isSurrogate = (codePoint: number) => codePoint >= 0xd800 && codePoint <= 0xdfff;

// A range's ends are written as themselves, so none may mean something else inside a class or
// end a regex literal (U+2028, U+2029 and the line feed and carriage return controls).
const UNSAFE_END = /[\\\][^\-\n\r\u2028\u2029]/u;

/** The code points up to U+FFFF, surrogates aside, for which `keep` holds, as ranges of a class. */
function bmpRanges(keep: (character: string) => boolean): string {
  const ranges: string[] = [];
  let start: number | undefined;
  for (let codePoint = 0; codePoint <= LAST_BMP + 1; codePoint++) {
    const kept = codePoint <= LAST_BMP && !isSurrogate(codePoint) && keep(String.fromCharCode(codePoint));
    if (kept && start === undefined) start = codePoint;
    if (!kept && start !== undefined) {
      const end = codePoint - 1;
      for (const character of [start, end].map((point) => String.fromCharCode(point))) {
        if (UNSAFE_END.test(character)) throw new Error(`U+${character.charCodeAt(0).toString(16)} cannot end a range`);
      }
      ranges.push(
        start === end ? String.fromCharCode(start) : `${String.fromCharCode(start)}-${String.fromCharCode(end)}`,
      );
      start = undefined;
    }
  }
  return ranges.join('');
}

/**
 * Invisible or beyond U+FFFF characters, one visible character, then anything but control
 * characters. The first class and the visible one are disjoint, so matching stays linear in the
 * length but for characters beyond U+FFFF before the first visible one up to U+FFFF.
 */
export function derivePetNamePattern(): string {
  const control = bmpRanges((character) => CONTROL.test(character));
  const visible = bmpRanges((character) => !CONTROL.test(character) && !INVISIBLE.test(character));
  const upToLastBmp = bmpRanges(() => true);
  return `^[^${control}${visible}]*([${visible}]|[^${upToLastBmp}])[^${control}]*$`;
}

/** The pattern as a YAML double-quoted scalar: the characters YAML cannot hold as they are, escaped for YAML. */
function yamlScalar(text: string): string {
  const printable = /[\t\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd]/u;
  const escapedCharacter = (character: string) => {
    if (character === '"' || character === '\\') return `\\${character}`;
    if (printable.test(character)) return character;
    return `\\u${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
  };
  return `"${Array.from(text, escapedCharacter).join('')}"`;
}

const PET_NAME_SCHEMA = fileURLToPath(new URL('../../openapi/components/schemas/PetName.yaml', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pattern = derivePetNamePattern();
  if (process.argv.includes('--write')) {
    const yaml = readFileSync(PET_NAME_SCHEMA, 'utf8');
    writeFileSync(
      PET_NAME_SCHEMA,
      yaml.replace(/^pattern: .*$/m, () => `pattern: ${yamlScalar(pattern)}`),
    );
  } else {
    process.stdout.write(`${pattern}\n`);
  }
}
