// Redocly rule `animal-store/portable-patterns`: every regular expression of the contract (a
// schema's `pattern`, the keys of its `patternProperties`) stays in JSON Schema's interoperable
// subset, so that JavaScript with and without the `u` flag, Python's `re`, Go's `regexp` (RE2) and
// Java read it alike (the product decisions, fifth round). The pattern is parsed by regexpp, the
// ECMA-262 parser ESLint uses, and each construct outside the subset is named with its offset.
// Plain JavaScript, so `redocly lint` loads it as is.
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** Why each reader would disagree, by the construct's kind. */
const REASONS = {
  lookaround: 'Go has no lookaround',
  backreference: 'Go has no backreferences',
  namedGroup: 'Python names a group `(?P<name>`',
  modifiers: 'Go and Python write modifiers differently and JavaScript before ES2025 has none',
  property: 'without the `u` flag `\\p{...}` is the letters themselves, and Go and Python know other properties',
  classEscape:
    "the readers disagree beyond ASCII (Python's `\\d` takes every decimal digit, Go's `\\s` only ASCII space)",
  characterEscape: 'write the character itself: `\\u` reads differently without the `u` flag and Go has no `\\u`',
};

/** The constructs of `pattern` outside the subset, each as `{ construct, offset, reason }`, or a syntax error. */
function nonPortable(pattern) {
  let ast;
  try {
    ast = parser.parsePattern(pattern, 0, pattern.length, { unicode: true });
  } catch (error) {
    return [{ construct: pattern, offset: 0, reason: `not an ECMA-262 pattern: ${error.message}`, more: 0 }];
  }
  // The first construct of each kind, and how many more of it there are.
  const found = new Map();
  const add = (node, kind) => {
    const first = found.get(kind);
    if (first !== undefined) {
      first.more++;
      return;
    }
    // Modifiers stand inside their group: the offset is the group's.
    const start = node.type === 'Modifiers' ? node.parent.start : node.start;
    found.set(kind, { construct: opening(node), offset: start, reason: REASONS[kind], more: 0 });
  };
  visitRegExpAST(ast, {
    onAssertionEnter(node) {
      if (node.kind === 'lookahead' || node.kind === 'lookbehind') add(node, 'lookaround');
      else if (node.kind === 'word') add(node, 'classEscape');
    },
    onBackreferenceEnter: (node) => add(node, 'backreference'),
    onCapturingGroupEnter(node) {
      if (node.name !== null) add(node, 'namedGroup');
    },
    onModifiersEnter: (node) => add(node, 'modifiers'),
    onCharacterSetEnter(node) {
      if (node.kind === 'property') add(node, 'property');
      if (node.kind === 'digit' || node.kind === 'space' || node.kind === 'word') add(node, 'classEscape');
    },
    onCharacterEnter(node) {
      // `\u`, `\x`, `\c` and octal or NUL escapes; an escaped syntax character (`\?`, `\.`) is portable.
      if (/^\\(?:[uxc]|[0-9])/.test(node.raw)) add(node, 'characterEscape');
    },
  });
  return [...found.values()];
}

/** A group's opening (`(?=`, `(?<name>`, `(?i:`), enough to find it; any other construct whole. */
function opening(node) {
  if (node.type === 'Assertion') return `(?${node.kind === 'lookbehind' ? '<' : ''}${node.negate ? '!' : '='}`;
  if (node.type === 'Modifiers') return `(?${node.raw}:`;
  if (node.type === 'CapturingGroup') return `(?<${node.name}>`;
  return node.raw;
}

export function PortablePatterns() {
  const check = (pattern, location, ctx) => {
    if (typeof pattern !== 'string') return;
    for (const { construct, offset, reason, more } of nonPortable(pattern)) {
      const others = more === 0 ? '' : ` (and ${more} more like it)`;
      ctx.report({
        message: `The pattern uses \`${construct}\` at character ${offset}${others}, outside JSON Schema's interoperable subset: ${reason}.`,
        location,
      });
    }
  };
  return {
    Schema: {
      enter(schema, ctx) {
        check(schema.pattern, ctx.location.child('pattern'), ctx);
        for (const key of Object.keys(schema.patternProperties ?? {})) {
          check(key, ctx.location.child(['patternProperties', key]).key(), ctx);
        }
      },
    },
  };
}
