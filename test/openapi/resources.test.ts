import { describe, expect, it } from 'vitest';
import { componentSchema, keywords, propertyOf, resolve } from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

const newPet = componentSchema('NewPet');
const pet = componentSchema('Pet');
const largestExactInteger = 9007199254740991;

describe('NewPet', () => {
  it('requires exactly name and categoryId', () => {
    expect([...((keywords(newPet).required as string[] | undefined) ?? [])].sort()).toEqual(['categoryId', 'name']);
  });

  it('declares name as a string', () => {
    expect(keywords(propertyOf(newPet, 'name')).type).toBe('string');
  });

  it('declares categoryId as an integer of format int64', () => {
    expect(keywords(propertyOf(newPet, 'categoryId'))).toMatchObject({ type: 'integer', format: 'int64' });
  });

  it('declares status as an optional PetStatus', () => {
    expect(resolve(propertyOf(newPet, 'status'))).toBe(componentSchema('PetStatus'));
    expect(keywords(newPet).required).not.toContain('status');
  });
});

describe('Pet', () => {
  it.each(['name', 'categoryId', 'status'])('has the NewPet field %s with the same schema', (field) => {
    expect(resolve(propertyOf(pet, field))).toBe(resolve(propertyOf(newPet, field)));
  });

  it('requires id and the required NewPet fields', () => {
    expect(keywords(pet).required).toEqual(expect.arrayContaining(['id', 'name', 'categoryId']));
  });

  it('declares id as an integer of format int64', () => {
    expect(keywords(propertyOf(pet, 'id'))).toMatchObject({ type: 'integer', format: 'int64' });
  });
});

describe('Pets', () => {
  it('is an array of Pet', () => {
    const pets = keywords(componentSchema('Pets'));
    expect(pets.type).toBe('array');
    expect(resolve(pets.items as object)).toBe(pet);
  });
});

describe('PetStatus', () => {
  it('is the string enumeration available, pending, sold', () => {
    expect(keywords(componentSchema('PetStatus'))).toMatchObject({
      type: 'string',
      enum: ['available', 'pending', 'sold'],
    });
  });

  it('gives every animal a status from PetStatus', () => {
    expect(resolve(propertyOf(pet, 'status'))).toBe(componentSchema('PetStatus'));
  });
});

describe('Error', () => {
  const error = componentSchema('Error');

  it('requires code, message and status', () => {
    expect(keywords(error).required).toEqual(expect.arrayContaining(['code', 'message', 'status']));
  });

  it('types code and message as strings and status as an integer', () => {
    expect(keywords(propertyOf(error, 'code')).type).toBe('string');
    expect(keywords(propertyOf(error, 'message')).type).toBe('string');
    expect(keywords(propertyOf(error, 'status')).type).toBe('integer');
  });
});

describe('status omitted on create', () => {
  it('defaults NewPet status to available', () => {
    expect(propertyOf(newPet, 'status')).toMatchObject({ default: 'available' });
  });

  it('requires status in Pet, so the 201 body always carries it', () => {
    expect(keywords(pet).required).toContain('status');
  });
});

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
});

describe('Pet id', () => {
  it('starts at 1 and stays within 2^53-1', () => {
    expect(keywords(propertyOf(pet, 'id'))).toMatchObject({ minimum: 1, maximum: largestExactInteger });
  });
});
