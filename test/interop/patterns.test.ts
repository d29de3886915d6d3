// Consumers validate with the contract in their own language. Every `pattern` of the bundled
// contract must compile in each engine they use and judge every string alike: JavaScript with the
// `u` flag (JSON Schema's reading: Ajv, the service) and without it (orval, hey-api), Python's `re`
// (jsonschema, openapi-core, Schemathesis), Go's `regexp` (kin-openapi, oapi-codegen) and Java's
// `java.util.regex` (Specmatic, the JVM's validators). The only difference allowed is `$`, which in
// Python also matches before a final line feed, in Java before any final line terminator.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { installed } from '../support/installed.ts';

const run = promisify(execFile);
const engines = path.join(REPOSITORY_ROOT, 'test/interop/regex-engines');
const contract: unknown = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'generated/openapi.json'), 'utf8'));

interface Pattern {
  /** Where the contract holds it, as a JSON pointer. */
  at: string;
  source: string;
}

/** Every `pattern` (a string under that key) and `patternProperties` key of the document. */
function patternsOf(node: unknown, at = ''): Pattern[] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const here = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key === 'pattern' && typeof value === 'string') return [{ at: here, source: value }];
    const keys =
      key === 'patternProperties' && typeof value === 'object' && value !== null
        ? Object.keys(value).map((source) => ({ at: here, source }))
        : [];
    return [...keys, ...patternsOf(value, here)];
  });
}

/** The strings of every example (and `enum`, `const`, `default`) of the document. */
function exampleStrings(node: unknown, inExample = false): string[] {
  if (typeof node === 'string') return inExample ? [node] : [];
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    exampleStrings(value, inExample || ['example', 'examples', 'enum', 'const', 'default'].includes(key)),
  );
}

const patterns = patternsOf(contract);
const parser = new RegExpParser({ ecmaVersion: 2025 });

/** The code points a pattern names (characters, the ends of ranges), each with its neighbours. */
function boundaries(pattern: string): number[] {
  const named: number[] = [];
  visitRegExpAST(parser.parsePattern(pattern, 0, pattern.length, { unicode: true }), {
    onCharacterEnter: (node) => void named.push(node.value),
  });
  return named.flatMap((codePoint) => [codePoint - 1, codePoint, codePoint + 1]);
}

// The kinds of character the name rule names, by this Node's Unicode data.
const RULE_KINDS = /[\p{Cc}\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
const isSurrogate = (codePoint: number) => codePoint >= 0xd800 && codePoint <= 0xdfff;

/** Up to U+FFFF every character of the rule's kinds; beyond, the first and last of each run and every 64th. */
function ruleCharacters(): number[] {
  const found: number[] = [];
  let previous = false;
  for (let codePoint = 0; codePoint <= 0x10ffff + 1; codePoint++) {
    const kind = codePoint <= 0x10ffff && !isSurrogate(codePoint) && RULE_KINDS.test(String.fromCodePoint(codePoint));
    if (kind && (codePoint <= 0xffff || !previous || codePoint % 64 === 0)) found.push(codePoint);
    if (!kind && previous && codePoint > 0xffff) found.push(codePoint - 1);
    previous = kind;
  }
  return found;
}

/** Characters beyond U+FFFF at the edges of their surrogates, and common ones (emoji, a clef). */
const ASTRAL = [0x10000, 0x103ff, 0x10400, 0x1d11e, 0x1f436, 0x1f415, 0xe0020, 0xfffff, 0x10fc00, 0x10ffff];
const LINE_TERMINATORS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085'];

/** Each character alone, after a name and before a letter; each example as it is and slightly off. */
function buildCorpus(): string[] {
  const characters = [
    ...new Set([...patterns.flatMap(({ source }) => boundaries(source)), ...ruleCharacters(), ...ASTRAL]),
  ]
    .filter((codePoint) => codePoint >= 0 && codePoint <= 0x10ffff && !isSurrogate(codePoint))
    .map((codePoint) => String.fromCodePoint(codePoint));
  const examples = [...new Set(exampleStrings(contract))];
  const nearExamples = examples.flatMap((example) => [
    `${example}\n`,
    `${example}x`,
    example.slice(1),
    example.slice(0, -1),
    `${example.slice(0, 1)}${example}`,
    example.replace(/limit=[0-9]+/, 'limit=0'),
    example.replace(/&?cursor=[^&>]*/, ''),
  ]);
  const joined = [...characters, ...LINE_TERMINATORS].flatMap((character) => [
    character,
    `Rex${character}`,
    `${character}x`,
    character.repeat(2),
  ]);
  // A fixed seed: the same mixed strings on every run, so a failure can be rerun.
  let seed = 7;
  const random = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % below;
  };
  const mixed = Array.from({ length: 500 }, () =>
    Array.from({ length: random(7) }, () => characters[random(characters.length)]).join(''),
  );
  return [...new Set(['', ...examples, ...nearExamples, ...joined, ...mixed])];
}

const corpus = buildCorpus();

interface Judged {
  error?: string;
  verdicts?: boolean[];
}
type Engine = 'JavaScript with u' | 'JavaScript without u' | 'Python re' | 'Go regexp' | 'Java regex';

/** The final line terminators an engine's `$` also matches before. */
const DOLLAR_BEFORE: Partial<Record<Engine, string[]>> = {
  'Python re': ['\n'],
  'Java regex': ['\r\n', '\n', '\r', '\u0085', '\u2028', '\u2029'],
};

function inJavaScript(flags: string): Judged[] {
  return patterns.map(({ source }) => {
    let compiled: RegExp;
    try {
      compiled = new RegExp(source, flags);
    } catch (error) {
      return { error: String(error) };
    }
    return { verdicts: corpus.map((text) => compiled.test(text)) };
  });
}

async function inProcess(command: string, args: string[], input: string): Promise<string> {
  const child = run(command, args, { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GOTOOLCHAIN: 'local' } });
  child.child.stdin?.end(input);
  return (await child).stdout;
}

const asJson = () => JSON.stringify({ patterns: patterns.map(({ source }) => source), strings: corpus });

/** Java has no JSON reader of its own: counts, then a line of Base64 per item, answered a line per pattern. */
async function inJava(): Promise<Judged[]> {
  const lines = (items: string[]) => [items.length, ...items.map((item) => Buffer.from(item).toString('base64'))];
  const input = [...lines(patterns.map(({ source }) => source)), ...lines(corpus)].join('\n');
  const output = await inProcess('java', [path.join(engines, 'Match.java')], `${input}\n`);
  return output
    .trimEnd()
    .split('\n')
    .map((line) =>
      line.startsWith('E ') ? { error: line.slice(2) } : { verdicts: Array.from(line.slice(2), (bit) => bit === '1') },
    );
}

const hasGo = installed('go', ['version'], 'apt-get install golang-go', 'test/interop/patterns.test.ts');
const hasPython = installed('python3', ['--version'], 'apt-get install python3', 'test/interop/patterns.test.ts');
// A source file runs only with the JDK's compiler: the JRE alone cannot.
const hasJava = installed(
  'javac',
  ['-version'],
  'apt-get install default-jdk-headless',
  'test/interop/patterns.test.ts',
);
const judged = new Map<Engine, Judged[]>();

beforeAll(async () => {
  judged.set('JavaScript with u', inJavaScript('u'));
  judged.set('JavaScript without u', inJavaScript(''));
  const [python, go, java] = await Promise.all([
    hasPython ? inProcess('python3', [path.join(engines, 'match.py')], asJson()) : undefined,
    hasGo ? inProcess('go', ['run', path.join(engines, 'match.go')], asJson()) : undefined,
    hasJava ? inJava() : undefined,
  ]);
  if (python) judged.set('Python re', JSON.parse(python));
  if (go) judged.set('Go regexp', JSON.parse(go));
  if (java) judged.set('Java regex', java);
}, 120_000);

const withU = new Map<string, RegExp>();
const compiledWithU = (source: string) =>
  withU.get(source) ?? (withU.set(source, new RegExp(source, 'u')).get(source) as RegExp);

/** What an engine must say of `text` for the pattern `source`: what JavaScript with `u` says. */
function expected(engine: Engine, source: string, text: string): boolean {
  const reference = compiledWithU(source);
  // Where `$` also matches before a final line terminator, the string without it may match too.
  const terminator = DOLLAR_BEFORE[engine]?.find((ending) => text.endsWith(ending));
  return reference.test(text) || (terminator !== undefined && reference.test(text.slice(0, -terminator.length)));
}

describe("the contract's patterns, in every consumer's engine", () => {
  it('reads patterns and a corpus of over a thousand strings, none a lone surrogate', () => {
    expect(patterns.length).toBeGreaterThan(0);
    expect(corpus.length).toBeGreaterThanOrEqual(1000);
    // Go reads strings as UTF-8, which cannot hold one.
    expect(corpus.filter((text) => /\p{Cs}/u.test(text))).toEqual([]);
  });

  const engineNames: Array<[Engine, boolean]> = [
    ['JavaScript without u', true],
    ['Python re', hasPython],
    ['Go regexp', hasGo],
    ['Java regex', hasJava],
  ];

  it.each([['JavaScript with u', true] as [Engine, boolean], ...engineNames].filter(([, here]) => here))(
    '%s compiles every pattern',
    (engine) => {
      const errors = (judged.get(engine) ?? []).flatMap((result, index) =>
        result.error === undefined ? [] : [`${patterns[index]?.at}: ${result.error}`],
      );
      expect(errors).toEqual([]);
      expect(judged.get(engine)).toHaveLength(patterns.length);
    },
  );

  it.each(engineNames.filter(([, here]) => here))('%s judges every string as JavaScript with u does', (engine) => {
    const disagreements = (judged.get(engine) ?? []).flatMap(({ verdicts = [] }, patternIndex) => {
      const { at, source } = patterns[patternIndex] as Pattern;
      return verdicts.flatMap((verdict, index) =>
        verdict === expected(engine, source, corpus[index] as string)
          ? []
          : [`${at} ${JSON.stringify(corpus[index])}: ${engine} says ${verdict}`],
      );
    });
    expect(disagreements.slice(0, 20)).toEqual([]);
  });
});
