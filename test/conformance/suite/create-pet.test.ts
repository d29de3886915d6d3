import { describe, expect } from 'vitest';
import type { ErrorBody } from '../../../core/errors.ts';
import type { NewPet, Pet } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { idempotencyCases } from '../../support/conformance/idempotency.ts';
import { createPet, EXAMPLE_NEW_PET, requestFromLink } from '../../support/conformance/pets.ts';
import { basePath, componentSchema, keywords, propertyOf } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';

let created = 0;

/** A keyword of a NewPet field's schema, as the contract states it: the bodies below are built from them. */
function ruleOf(field: string, keyword: string): number {
  const value = keywords(propertyOf(componentSchema('NewPet'), field))[keyword];
  if (typeof value !== 'number') throw new Error(`NewPet.${field} states no ${keyword}`);
  return value;
}

const NAME_MIN = ruleOf('name', 'minLength');
const NAME_MAX = ruleOf('name', 'maxLength');
const CATEGORY_MIN = ruleOf('categoryId', 'minimum');
const CATEGORY_MAX = ruleOf('categoryId', 'maximum');
const STATUSES = keywords(propertyOf(componentSchema('NewPet'), 'status')).enum as NonNullable<NewPet['status']>[];
const FIRST_STATUS = defined(STATUSES[0], 'a status of NewPet');
const LAST_STATUS = defined(STATUSES.at(-1), 'a status of NewPet');
/** The status a create without one stores: the `default` beside NewPet's status. */
const DEFAULT_STATUS = (propertyOf(componentSchema('NewPet'), 'status') as { default?: unknown }).default;
/** A status the enumeration does not hold. */
const NOT_A_STATUS = 'lost';
if ((STATUSES as string[]).includes(NOT_A_STATUS)) throw new Error(`${NOT_A_STATUS} is a status of the contract`);

/** `count` characters, half of them (rounded down) beyond U+FFFF: two UTF-16 units each. */
const halfAstral = (count: number) => 'a'.repeat(count - Math.floor(count / 2)) + '🐕'.repeat(Math.floor(count / 2));

/** The contract's minimal NewPet with `field` set to `value`. */
const withField = (field: string, value: unknown) => ({ ...EXAMPLE_NEW_PET, [field]: value });

/** The contract's minimal NewPet without `field`. */
function without(field: string): Record<string, unknown> {
  const { [field]: _left, ...rest } = EXAMPLE_NEW_PET as unknown as Record<string, unknown>;
  return rest;
}

/** The minimal NewPet as JSON text with `categoryId` written as `text`: spellings no JSON value round-trips to. */
const withCategoryIdText = (text: string) =>
  JSON.stringify(withField('categoryId', 0)).replace('"categoryId":0', `"categoryId":${text}`);

interface InvalidBody {
  reason: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as written, as application/json. */
  text?: string;
  /** The fields the answer's `details` name, in order: unknown fields first, then NewPet's. */
  fields: string[];
  /** The contract's named example a mock answers with when the case is about a specific one. */
  example?: string;
}

/** Valid JSON that no NewPet matches: the bodies createPet refuses with `400 validation_failed`, naming the fields. */
const INVALID_BODIES: InvalidBody[] = [
  // Fields missing, unknown or chosen by the service.
  { reason: 'name is missing', json: without('name'), fields: ['name'] },
  { reason: 'categoryId is missing', json: without('categoryId'), fields: ['categoryId'] },
  { reason: 'both required fields are missing', json: {}, fields: ['name', 'categoryId'] },
  {
    reason: 'a field is not in NewPet',
    json: withField('colour', 'brown'),
    fields: ['colour'],
    example: 'ErrorUnknownField',
  },
  {
    reason: 'a field is misspelt, and the one it misspells is missing',
    json: { ...without('categoryId'), categoryID: EXAMPLE_NEW_PET.categoryId },
    fields: ['categoryID', 'categoryId'],
  },
  { reason: 'the client chooses the id, which the service assigns', json: withField('id', 7), fields: ['id'] },
  {
    reason: 'two unknown fields come with a status outside the enumeration',
    json: { status: NOT_A_STATUS, ...EXAMPLE_NEW_PET, colour: 'red', size: 2 },
    fields: ['colour', 'size', 'status'],
  },
  {
    reason: 'every field is wrong, sent in reverse order',
    json: { status: NOT_A_STATUS, categoryId: 'a', name: 5 },
    fields: ['name', 'categoryId', 'status'],
  },
  {
    reason: 'an unknown field holds an unpaired surrogate and name is empty',
    json: { name: '', tags: ['\ud800'], categoryId: EXAMPLE_NEW_PET.categoryId },
    fields: ['tags', 'name'],
  },

  // name: its length, counted in code points, and its characters.
  {
    reason: `name is shorter than ${NAME_MIN} characters`,
    json: withField('name', 'x'.repeat(NAME_MIN - 1)),
    fields: ['name'],
  },
  {
    reason: `name has ${NAME_MAX + 1} characters`,
    json: withField('name', 'x'.repeat(NAME_MAX + 1)),
    fields: ['name'],
  },
  {
    reason: `name has ${NAME_MAX + 1} characters beyond U+FFFF`,
    json: withField('name', '🐕'.repeat(NAME_MAX + 1)),
    fields: ['name'],
  },
  {
    reason: `name has ${NAME_MAX + 1} characters, half of them beyond U+FFFF`,
    json: withField('name', halfAstral(NAME_MAX + 1)),
    fields: ['name'],
  },
  { reason: 'name is fifty times too long', json: withField('name', 'x'.repeat(NAME_MAX * 50)), fields: ['name'] },
  { reason: 'name is only spaces', json: withField('name', '   '), fields: ['name'] },
  { reason: 'name is only white space, a tab among it', json: withField('name', ' \t '), fields: ['name'] },
  { reason: 'name is only white space beyond ASCII', json: withField('name', '\u00a0\u2003\u3000'), fields: ['name'] },
  { reason: 'name is only zero-width spaces', json: withField('name', '\u200b\u200b\u200b'), fields: ['name'] },
  { reason: 'name is only U+2800 braille blanks', json: withField('name', '\u2800\u2800'), fields: ['name'] },
  { reason: 'name is only U+3164 hangul fillers', json: withField('name', '\u3164\u3164'), fields: ['name'] },
  { reason: 'name is only U+FEFF', json: withField('name', '\ufeff'), fields: ['name'] },
  { reason: 'name is only soft hyphens', json: withField('name', '\u00ad\u00ad'), fields: ['name'] },
  { reason: 'name is a lone U+202E direction override', json: withField('name', '\u202e'), fields: ['name'] },
  ...[0x00, 0x07, 0x09, 0x0a, 0x1f, 0x7f, 0x80, 0x85, 0x9f].map((code) => ({
    reason: `name holds the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
    json: withField('name', `Re${String.fromCharCode(code)}x`),
    fields: ['name'],
  })),
  { reason: 'name is a lone high surrogate', json: withField('name', '\ud800'), fields: ['name'] },
  { reason: 'name holds a lone low surrogate between letters', json: withField('name', 'Re\udc00x'), fields: ['name'] },
  { reason: 'name is a number', json: withField('name', 42), fields: ['name'] },
  { reason: 'name is null', json: withField('name', null), fields: ['name'] },

  // categoryId: an integer within its bounds.
  {
    reason: `categoryId is ${CATEGORY_MIN - 1}, below its minimum`,
    json: withField('categoryId', CATEGORY_MIN - 1),
    fields: ['categoryId'],
  },
  { reason: 'categoryId is negative', json: withField('categoryId', -CATEGORY_MIN), fields: ['categoryId'] },
  { reason: 'categoryId is -0', text: withCategoryIdText('-0'), fields: ['categoryId'] },
  {
    reason: `categoryId is ${CATEGORY_MAX + 1}, above its maximum`,
    json: withField('categoryId', CATEGORY_MAX + 1),
    fields: ['categoryId'],
  },
  {
    reason: 'categoryId is 1e400, which a double reads as Infinity',
    text: withCategoryIdText('1e400'),
    fields: ['categoryId'],
  },
  { reason: 'categoryId is a fraction', json: withField('categoryId', CATEGORY_MIN + 0.5), fields: ['categoryId'] },
  {
    reason: 'categoryId is a string',
    json: withField('categoryId', String(EXAMPLE_NEW_PET.categoryId)),
    fields: ['categoryId'],
  },
  { reason: 'categoryId is a boolean', json: withField('categoryId', true), fields: ['categoryId'] },
  {
    reason: 'categoryId is an array',
    json: withField('categoryId', [EXAMPLE_NEW_PET.categoryId]),
    fields: ['categoryId'],
  },

  // status: a member of the enumeration, as written there.
  { reason: 'status is outside the enumeration', json: withField('status', NOT_A_STATUS), fields: ['status'] },
  {
    reason: 'status is a member of the enumeration capitalised',
    json: withField('status', FIRST_STATUS.charAt(0).toUpperCase() + FIRST_STATUS.slice(1)),
    fields: ['status'],
  },
  {
    reason: 'status is a member of the enumeration in upper case',
    json: withField('status', FIRST_STATUS.toUpperCase()),
    fields: ['status'],
  },
  { reason: 'status is empty', json: withField('status', ''), fields: ['status'] },
  { reason: 'status is a number', json: withField('status', 1), fields: ['status'] },
  { reason: 'status is null', json: withField('status', null), fields: ['status'] },
];

/** Valid JSON that is no object at all: `400 validation_failed` about the body. */
const NOT_AN_OBJECT: Array<[reason: string, text: string]> = [
  ['an empty array', '[]'],
  ['an array holding a valid NewPet', JSON.stringify([EXAMPLE_NEW_PET])],
  ['null', 'null'],
  ['a string', JSON.stringify(EXAMPLE_NEW_PET.name)],
  ['a number', '42'],
  ['a boolean', 'true'],
];

/** Bodies that are not JSON: `400 malformed_json`. */
const MALFORMED: Array<[reason: string, text: string | undefined]> = [
  ['an object cut off after a comma', '{"name": "Rex",'],
  ['an object never closed', '{"name":"Rex","categoryId":1'],
  ['a trailing comma', '{"name":"Rex","categoryId":1,}'],
  ['single quotes', "{'name':'Rex','categoryId':1}"],
  ['bare text', 'Rex'],
  ['text after the object', '{"name":"Rex","categoryId":1} x'],
  ['NaN for a number', '{"name":"Rex","categoryId":NaN}'],
  ['an empty body', ''],
  ['a body of white space', ' \n\t '],
  ['no body at all', undefined],
];

/** Names at the edges of NewPet's rule that createPet stores exactly as sent. */
const ACCEPTED_NAMES: Array<[reason: string, name: string]> = [
  [`${NAME_MAX} characters`, 'a'.repeat(NAME_MAX)],
  [`${NAME_MAX} characters beyond U+FFFF (twice as many UTF-16 units)`, '🐕'.repeat(NAME_MAX)],
  [`${NAME_MAX} characters, half of them beyond U+FFFF`, halfAstral(NAME_MAX)],
  [`${NAME_MIN} character`, 'R'.repeat(NAME_MIN)],
  ['leading and trailing spaces', '  Rex  '],
  ['inner runs of spaces', 'Rex   the   dog'],
  ['a leading no-break space', '\u00a0Rex'],
  ['a no-break space between words', 'Rex\u00a0Junior'],
  ['accents and an emoji sequence', 'Émile 🐕‍🦺'],
  ['non-Latin scripts', '小白 Шарик'],
  ['quotes and backslashes', 'Rex "the" \\dog\\'],
  ['a U+202E direction override before letters', '\u202eRex'],
];

/** categoryId written in the JSON ways of writing an integer in its bounds, and the integer stored. */
const ACCEPTED_CATEGORY_IDS: Array<[text: string, categoryId: number]> = [
  [`${CATEGORY_MIN}.0`, CATEGORY_MIN],
  ['1e2', 100],
  ['1E+2', 100],
  ['100.000', 100],
  [String(CATEGORY_MAX), CATEGORY_MAX],
  // More digits than a double holds: read as every JSON client reads it, the integer it rounds to.
  [`${CATEGORY_MIN}.0000000000000001`, CATEGORY_MIN],
];

const json = { 'Content-Type': 'application/json' };

async function createFromText(text: string): Promise<Pet> {
  const request: ApiRequest = { method: 'POST', path: '/pets', body: text, headers: json };
  const response = await send('createPet', request);
  expectStatus(request, response, 201);
  return response.body as Pet;
}

describe('createPet: POST /pets', () => {
  idempotencyCases('createPet', '/pets', async () => {
    created += 1;
    return { name: `Idem ${created}`, categoryId: 3 };
  });

  responseCase(
    'createPet',
    201,
    `with the stored animal, status ${DEFAULT_STATUS} by default, and its Location`,
    async (call) => {
      const response = await call({ path: '/pets', json: EXAMPLE_NEW_PET });
      const pet = response.body as Pet;
      expect(pet.status).toBe(DEFAULT_STATUS);
      expect(response.headers.get('Location')).toBe(`${basePath}/pets/${pet.id}`);
    },
  );

  statefulIt('stores the animal exactly as sent, with the status given', async () => {
    const sent = { name: ' Mittens  the 2nd 🐈 ', categoryId: CATEGORY_MAX, status: LAST_STATUS };
    const { pet } = await createPet(sent);
    expect(pet).toEqual({ ...sent, id: expect.any(Number) });
  });

  statefulIt.each(STATUSES)('keeps the status %s when the body gives it', async (status) => {
    const { pet } = await createPet({ ...EXAMPLE_NEW_PET, status });
    expect(pet.status).toBe(status);
  });

  statefulIt.each(ACCEPTED_NAMES)('stores a name of %s exactly as sent', async (_reason, name) => {
    const { pet } = await createPet({ ...EXAMPLE_NEW_PET, name });
    expect(pet.name).toBe(name);
  });

  statefulIt('stores a name sent as an escaped surrogate pair as the one character it is', async () => {
    const pet = await createFromText(
      JSON.stringify(withField('name', '')).replace('"name":""', '"name":"\\ud83d\\ude00"'),
    );
    expect(pet.name).toBe('\u{1f600}');
  });

  statefulIt.each(ACCEPTED_CATEGORY_IDS)('stores categoryId written as %s as %s', async (text, categoryId) => {
    expect((await createFromText(withCategoryIdText(text))).categoryId).toBe(categoryId);
  });

  statefulIt('assigns strictly increasing ids', async () => {
    const { pet: first } = await createPet();
    const { pet: second } = await createPet();
    expect(second.id).toBeGreaterThan(first.id);
  });

  statefulIt('answers the Location with the animal as created', async () => {
    const { pet, response } = await createPet({ ...EXAMPLE_NEW_PET, status: LAST_STATUS });
    const request = requestFromLink(defined(response.headers.get('Location'), 'a Location header on the 201'));
    const fetched = await send('getPet', request);
    expectStatus(request, fetched, 200);
    expect(fetched.body).toEqual(pet);
  });

  // The one place the bodies createPet refuses are written down: every target must answer each alike.
  for (const { reason, json: body, text, fields, example } of INVALID_BODIES) {
    responseCase('createPet', 400, `validation_failed naming ${fields.join(', ')} when ${reason}`, async (call) => {
      const response = await call({
        path: '/pets',
        ...(text === undefined ? { json: body } : { body: text, headers: json }),
        example,
      });
      const error = response.body as ErrorBody;
      expect(errorCode(response)).toBe('validation_failed');
      expect(error.details?.map((detail) => `${detail.in} ${detail.name}`)).toEqual(
        fields.map((field) => `body ${field}`),
      );
      expect(error.message).toContain(`\`${fields[0]}\``);
    });
  }

  for (const [reason, text] of NOT_AN_OBJECT) {
    responseCase('createPet', 400, `validation_failed when the body is ${reason}, not an object`, async (call) => {
      const response = await call({ path: '/pets', body: text, headers: json });
      expect(errorCode(response)).toBe('validation_failed');
      expect((response.body as ErrorBody).message).toMatch(/body/i);
    });
  }

  for (const [reason, text] of MALFORMED) {
    responseCase('createPet', 400, `malformed_json when the body is ${reason}`, async (call) => {
      const response = await call({
        path: '/pets',
        ...(text === undefined ? {} : { body: text }),
        headers: json,
        example: 'ErrorMalformedJson',
      });
      expect(errorCode(response)).toBe('malformed_json');
      expect((response.body as ErrorBody).message).toMatch(/body/i);
    });
  }
});
