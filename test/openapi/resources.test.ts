import { describe, expect, it } from 'vitest';
import { componentSchema, keywords, propertyOf } from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

// The bodies of createPet the schema of NewPet takes and refuses, until the contract suite
// (test/conformance/suite/create-pet.test.ts) holds them, against every target.
const newPet = componentSchema('NewPet');
const largestExactInteger = 9007199254740991;

describe('NewPet name', () => {
  const name = propertyOf(newPet, 'name');

  it.each([
    ['an ordinary name', 'Rex'],
    ['a name with inner spaces', 'Mr Whiskers the Third'],
    ['leading and trailing spaces (stored as sent)', '  Rex  '],
    ['letters beyond ASCII', 'Zoë 小白'],
    ['an emoji beyond the Basic Multilingual Plane', '🐕 Rex'],
    ['a single character', 'R'],
    ['100 code points', 'a'.repeat(100)],
    ['100 astral code points (200 UTF-16 units)', '🐕'.repeat(100)],
    ['a no-break space between words', 'Rex\u00A0Junior'],
  ])('accepts %s', (_case, value) => {
    expect(accepts(name, value)).toBe(true);
  });

  it.each([
    ['the empty string', ''],
    ['only spaces', '   '],
    ['only white space beyond ASCII', '\u00A0\u3000'],
    ['101 code points', 'a'.repeat(101)],
    ['101 astral code points', '🐕'.repeat(101)],
    ['U+0000', 'Rex\u0000'],
    ['a tab', 'Rex\tJunior'],
    ['a line feed', 'Rex\nJunior'],
    ['U+001F', 'Rex\u001F'],
    ['DEL U+007F', 'Rex\u007F'],
    ['U+0080', '\u0080Rex'],
    ['NEL U+0085', 'Rex\u0085'],
    ['U+009F', 'Rex\u009F'],
    ['a number', 42],
  ])('rejects %s', (_case, value) => {
    expect(accepts(name, value)).toBe(false);
  });
});

describe('NewPet categoryId', () => {
  const categoryId = propertyOf(newPet, 'categoryId');

  it('keeps format int64 with the bounds 1 and 2^53-1', () => {
    expect(keywords(categoryId)).toMatchObject({ format: 'int64', minimum: 1, maximum: largestExactInteger });
  });

  it.each([1, 3, largestExactInteger])('accepts %s', (value) => {
    expect(accepts(categoryId, value)).toBe(true);
  });

  it.each([0, -1, 1.5, largestExactInteger + 1, '3'])('rejects %j', (value) => {
    expect(accepts(categoryId, value)).toBe(false);
  });
});

describe('unknown fields in NewPet', () => {
  it('rejects a field NewPet does not declare', () => {
    expect(keywords(newPet).additionalProperties).toBe(false);
    expect(accepts(newPet, { name: 'Rex', categoryId: 3 })).toBe(true);
    expect(accepts(newPet, { name: 'Rex', categoryId: 3, colour: 'brown' })).toBe(false);
  });

  it('leaves id out of NewPet, since the service assigns it', () => {
    expect(accepts(newPet, { name: 'Rex', categoryId: 3, id: 7 })).toBe(false);
  });
});
