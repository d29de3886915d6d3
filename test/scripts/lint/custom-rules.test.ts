import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getLineColLocation, lint, lintFromString, loadConfig, parseYaml, stringifyYaml } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES_MARKER } from '../../../scripts/pipeline/rules-prose.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';

type Node = Record<string, unknown>;
type Mutation = (document: Node) => void;
interface Finding {
  ruleId: string;
  severity: string;
  pointer: string | undefined;
}

const repository = (relative: string) => path.join(REPOSITORY_ROOT, relative);
const config = await loadConfig({ configPath: repository('redocly.yaml') });
const fixturePath = repository('test/scripts/lint/fixtures/conforming.yaml');
const fixtureSource = readFileSync(fixturePath, 'utf8');

const listPets = '/paths/~1pets/get';
const createPet = '/paths/~1pets/post';
const rateLimits = '/components/securitySchemes/bearerAuth/x-rate-limits';
const getPet = '/paths/~1pets~1{petId}/get';
const errorCode = '/components/schemas/Error/properties/code';
const errorCodes = `${errorCode}/x-error-codes`;
const petStatus = '/components/schemas/Pet/properties/status';
const transitions = `${petStatus}/x-transitions`;
const petProperties = '/components/schemas/Pet/properties';
const headers = '/components/headers';
const responses = '/components/responses';
const parameters = '/components/parameters';
const newPet = '/components/schemas/NewPet';
const getHealth = '/paths/~1healthz/get';
const petCreated = '/webhooks/petCreated/post';
/** A field naming another pet (a parent), the reference written beside the schema's own keywords. */
const parentId = (references: unknown) =>
  set(petProperties, 'parentId', { type: 'integer', 'x-references': references });
/** The same field as a `$ref` with `x-references` beside it, where the walk never visits the property itself. */
const parentIdByRef = (references: unknown) =>
  set(petProperties, 'parentId', { $ref: '#/components/schemas/Pet/properties/name', 'x-references': references });

/** createPet's Location written in its 201 rather than taken from the component, with the given examples. */
const inlineLocation = (examples: Node): Node => ({
  required: true,
  schema: { type: 'string', format: 'uri-reference' },
  ...examples,
});

function at(document: Node, pointer: string): Node {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<Node>((parent, key) => parent[key] as Node, document);
}

const set =
  (pointer: string, key: string, value: unknown): Mutation =>
  (document) => {
    at(document, pointer)[key] = value;
  };

const remove =
  (pointer: string, key: string): Mutation =>
  (document) => {
    delete at(document, pointer)[key];
  };

/** A header's `const` changed with its example, so that only the rule under test sees the change. */
const headerConst =
  (name: string, value: string): Mutation =>
  (document) => {
    set(`${headers}/${name}/schema`, 'const', value)(document);
    set(`${headers}/${name}`, 'example', value)(document);
  };

/** The finding of a component that a mutation left without any reference. */
const unused = (pointer: string): Finding => ({
  ruleId: 'no-unused-components',
  severity: 'error',
  pointer: `#${pointer}`,
});

async function lintFixture(...mutations: Mutation[]) {
  const document = parseYaml(fixtureSource) as Node;
  for (const mutate of mutations) mutate(document);
  const problems = await lintFromString({ source: stringifyYaml(document), absoluteRef: fixturePath, config });
  // A component referenced from two operations is reported once per visit; one finding is enough.
  const distinct = new Map(
    problems.map(({ ruleId, severity, location }) => {
      const finding: Finding = { ruleId, severity, pointer: location[0]?.pointer };
      return [JSON.stringify(finding), finding];
    }),
  );
  return [...distinct.values()];
}

/** Patterns outside JSON Schema's interoperable subset, by the construct the rule names; each takes the fixture's names. */
const nonPortablePatterns = [
  { construct: '(?!', pattern: '^(?! )[^\0-\x1F]+$' },
  { construct: '(?<=', pattern: '^.*(?<=x)$' },
  { construct: '\\1', pattern: '^([A-Z])\\1?[a-z]+$' },
  { construct: '\\u0041', pattern: '^[\\u0041-\\u005A][a-z]+$' },
  { construct: '\\x00', pattern: '^[^\\x00-\\x1F]+$' },
  { construct: '\\p{L}', pattern: '^\\p{L}+$' },
  { construct: '\\D', pattern: '^\\D+$' },
];

const violations: Array<{
  ruleId: string;
  violation: string;
  mutate: Mutation;
  pointer: string;
  alsoFires?: Finding[];
}> = [
  ...nonPortablePatterns.map(({ construct, pattern }) => ({
    ruleId: 'animal-store/portable-patterns',
    violation: `a name pattern with ${construct}`,
    mutate: set(`${petProperties}/name`, 'pattern', pattern),
    pointer: `#${petProperties}/name/pattern`,
  })),
  {
    ruleId: 'animal-store/portable-patterns',
    violation: 'a header pattern with a lookahead',
    mutate: set(
      `${headers}/Link-Next/schema`,
      'pattern',
      '^</v1/pets\\?(?=[^>]*cursor=)[^>]*cursor=[^&>]+[^>]*>; rel="next"$',
    ),
    pointer: `#${headers}/Link-Next/schema/pattern`,
  },
  {
    ruleId: 'animal-store/portable-patterns',
    violation: 'a patternProperties key with a property class',
    mutate: set(newPet, 'patternProperties', { '^\\p{Lu}': { type: 'string' } }),
    pointer: `#${newPet}/patternProperties/^\\p{Lu}`,
  },
  {
    ruleId: 'rule/operation-declares-401-429-and-503',
    violation: 'an operation without 401',
    mutate: remove(`${listPets}/responses`, '401'),
    pointer: `#${listPets}/responses`,
  },
  {
    ruleId: 'rule/operation-declares-401-429-and-503',
    violation: 'an operation without 429',
    mutate: remove(`${listPets}/responses`, '429'),
    pointer: `#${listPets}/responses`,
  },
  {
    ruleId: 'rule/operation-declares-401-429-and-503',
    violation: 'an operation without 503',
    mutate: remove(`${listPets}/responses`, '503'),
    pointer: `#${listPets}/responses`,
  },
  {
    ruleId: 'rule/response-declares-rate-limit-headers',
    violation: 'an inline response without headers',
    mutate: remove(`${getPet}/responses/400`, 'headers'),
    pointer: `#${getPet}/responses/400`,
  },
  {
    ruleId: 'rule/response-declares-rate-limit-headers',
    violation: 'a referenced component response without headers',
    mutate: remove('/components/responses/Unauthorized', 'headers'),
    pointer: '#/components/responses/Unauthorized',
  },
  {
    ruleId: 'rule/response-headers-include-rate-limit-headers',
    violation: 'a response without X-RateLimit-Reset',
    mutate: remove(`${listPets}/responses/200/headers`, 'X-RateLimit-Reset'),
    pointer: `#${listPets}/responses/200/headers`,
  },
  {
    ruleId: 'rule/response-headers-include-rate-limit-headers',
    violation: 'a referenced component response without X-RateLimit-Limit',
    mutate: remove('/components/responses/TooManyRequests/headers', 'X-RateLimit-Limit'),
    pointer: '#/components/responses/TooManyRequests/headers',
  },
  {
    ruleId: 'rule/response-headers-include-rate-limit-headers',
    violation: 'an empty headers map',
    mutate: set(`${getPet}/responses/400`, 'headers', {}),
    pointer: `#${getPet}/responses/400/headers`,
    alsoFires: [
      {
        ruleId: 'rule/deprecated-operation-responses-declare-deprecation-headers',
        severity: 'error',
        pointer: `#${getPet}/responses/400/headers`,
      },
    ],
  },
  {
    ruleId: 'rule/deprecated-operation-has-sunset',
    violation: 'deprecated: true without x-sunset',
    mutate: remove(getPet, 'x-sunset'),
    pointer: `#${getPet}`,
  },
  {
    ruleId: 'rule/sunset-is-a-date',
    violation: 'x-sunset written in words',
    mutate: set(getPet, 'x-sunset', '5 December 2030'),
    pointer: `#${getPet}/x-sunset`,
  },
  {
    ruleId: 'rule/sunset-is-a-date',
    violation: 'x-sunset without zero padding',
    mutate: set(getPet, 'x-sunset', '2030-12-5'),
    pointer: `#${getPet}/x-sunset`,
  },
  {
    ruleId: 'rule/sunset-is-a-date',
    violation: "x-sunset: ''",
    mutate: set(getPet, 'x-sunset', ''),
    pointer: `#${getPet}/x-sunset`,
  },
  {
    ruleId: 'rule/sunset-is-a-date',
    violation: 'x-sunset as a number',
    mutate: set(getPet, 'x-sunset', 20301205),
    pointer: `#${getPet}/x-sunset`,
  },
  {
    ruleId: 'rule/stability-marker-values',
    violation: 'x-stability: gamma',
    mutate: set(listPets, 'x-stability', 'gamma'),
    pointer: `#${listPets}/x-stability`,
  },
  {
    ruleId: 'rule/stability-marker-values',
    violation: 'x-stability: Beta (wrong case)',
    mutate: set(listPets, 'x-stability', 'Beta'),
    pointer: `#${listPets}/x-stability`,
  },
  {
    ruleId: 'rule/stability-marker-values',
    violation: "x-stability: ''",
    mutate: set(listPets, 'x-stability', ''),
    pointer: `#${listPets}/x-stability`,
  },
  {
    ruleId: 'rule/operation-id-camel-case',
    violation: 'a snake_case operationId',
    mutate: set(createPet, 'operationId', 'create_pet'),
    pointer: `#${createPet}/operationId`,
  },
  {
    ruleId: 'rule/operation-id-camel-case',
    violation: 'a PascalCase operationId',
    mutate: set(createPet, 'operationId', 'CreatePet'),
    pointer: `#${createPet}/operationId`,
  },
  {
    ruleId: 'rule/operation-id-camel-case',
    violation: 'an empty operationId',
    mutate: set(createPet, 'operationId', ''),
    pointer: `#${createPet}/operationId`,
    alsoFires: [{ ruleId: 'operation-operationId', severity: 'error', pointer: `#${createPet}/operationId` }],
  },
  {
    ruleId: 'animal-store/rate-limits-shape',
    violation: 'a plan allowed 0 requests a minute',
    mutate: set(`${rateLimits}/plans/free`, 'perMinute', 0),
    pointer: `#${rateLimits}`,
  },
  {
    ruleId: 'animal-store/rate-limits-shape',
    violation: 'a plan limit written as text',
    mutate: set(`${rateLimits}/plans`, 'pro', { perMinute: '300', perDay: 10_000 }),
    pointer: `#${rateLimits}`,
  },
  {
    ruleId: 'animal-store/rate-limits-shape',
    violation: 'rules without the ban',
    mutate: remove(rateLimits, 'ban'),
    pointer: `#${rateLimits}`,
  },
  {
    ruleId: 'animal-store/rate-limits-shape',
    violation: 'requests without a key limited by a per-key plan',
    mutate: set(rateLimits, 'withoutKey', 'enterprise'),
    pointer: `#${rateLimits}/withoutKey`,
  },
  {
    ruleId: 'animal-store/rate-limits-shape',
    violation: 'a plan allowing fewer requests a day than a minute',
    mutate: set(`${rateLimits}/plans`, 'free', { perMinute: 60, perDay: 59 }),
    pointer: `#${rateLimits}/plans/free`,
  },
  {
    ruleId: 'animal-store/max-body-bytes',
    violation: 'an operation taking a body without x-max-body-bytes',
    mutate: remove(createPet, 'x-max-body-bytes'),
    pointer: `#${createPet}`,
  },
  {
    ruleId: 'animal-store/max-body-bytes',
    violation: 'x-max-body-bytes: 0',
    mutate: set(createPet, 'x-max-body-bytes', 0),
    pointer: `#${createPet}/x-max-body-bytes`,
  },
  {
    ruleId: 'animal-store/max-body-bytes',
    violation: 'x-max-body-bytes on an operation that takes no body',
    mutate: set(listPets, 'x-max-body-bytes', 1024),
    pointer: `#${listPets}/x-max-body-bytes`,
  },
  {
    ruleId: 'animal-store/max-body-bytes',
    violation: 'the body-limit marker in the description of an operation that takes no body',
    mutate: set(listPets, 'description', `At most ${MAX_BODY_BYTES_MARKER}.`),
    pointer: `#${listPets}/description`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'a code of the enum without an entry',
    mutate: (document) => {
      (at(document, errorCode).enum as string[]).push('teapot');
    },
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'an entry for a code the enum does not list',
    mutate: set(errorCodes, 'teapot', { status: 418, meaning: 'No such thing.' }),
    pointer: `#${errorCodes}/teapot`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'a status below 400',
    mutate: set(errorCodes, 'internal_error', { status: 200, meaning: 'Fine.' }),
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'a status above 599',
    mutate: set(errorCodes, 'internal_error', { status: 600, meaning: 'Odd.' }),
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'a status written as text',
    mutate: set(errorCodes, 'internal_error', { status: '500', meaning: 'No key.' }),
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'an entry without a meaning',
    mutate: set(errorCodes, 'internal_error', { status: 500 }),
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'a meaning that would break the table',
    mutate: set(errorCodes, 'internal_error', { status: 500, meaning: 'No key | no entry.' }),
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/error-codes',
    violation: 'x-error-codes beside no enum',
    mutate: remove(errorCode, 'enum'),
    pointer: `#${errorCodes}`,
  },
  {
    ruleId: 'animal-store/transitions',
    violation: 'a state the enum does not list, as the state moved from',
    mutate: set(transitions, 'reserved', ['sold']),
    pointer: `#${transitions}/reserved`,
  },
  {
    ruleId: 'animal-store/transitions',
    violation: 'a state the enum does not list, as the state moved to',
    mutate: set(transitions, 'available', ['sold', 'lost']),
    pointer: `#${transitions}/available/1`,
  },
  {
    ruleId: 'animal-store/transitions',
    violation: 'a state whose next states are not a list',
    mutate: set(transitions, 'available', 'sold'),
    pointer: `#${transitions}`,
  },
  {
    ruleId: 'animal-store/transitions',
    violation: 'x-transitions beside no enum',
    mutate: remove(petStatus, 'enum'),
    pointer: `#${transitions}`,
  },
  {
    ruleId: 'animal-store/webhook-delivery',
    violation: 'a delivery timeout of zero',
    mutate: set('', 'x-webhook-delivery', { timeoutSeconds: 0, retryDelaysSeconds: [5] }),
    pointer: '#/x-webhook-delivery',
  },
  {
    ruleId: 'animal-store/webhook-delivery',
    violation: 'a retry wait written as text',
    mutate: set('', 'x-webhook-delivery', { timeoutSeconds: 10, retryDelaysSeconds: ['5s'] }),
    pointer: '#/x-webhook-delivery',
  },
  {
    ruleId: 'animal-store/owner-limit',
    violation: 'an owner limit of zero',
    mutate: set(createPet, 'x-owner-limit', { items: 0, code: 'pet_limit_reached' }),
    pointer: `#${createPet}/x-owner-limit`,
  },
  {
    ruleId: 'animal-store/owner-limit',
    violation: 'an owner limit written as text',
    mutate: set(createPet, 'x-owner-limit', 'ten'),
    pointer: `#${createPet}/x-owner-limit`,
  },
  {
    ruleId: 'animal-store/owner-limit',
    violation: 'an owner limit without the code of its refusal',
    mutate: set(createPet, 'x-owner-limit', { items: 10 }),
    pointer: `#${createPet}/x-owner-limit`,
  },
  {
    ruleId: 'animal-store/owner-limit',
    violation: 'an owner limit on an operation that declares no 409',
    mutate: (document) => {
      remove(`${createPet}/responses`, '409')(document);
      remove(createPet, 'parameters')(document);
      remove(parameters, 'IdempotencyKey')(document);
      remove(responses, 'IdempotencyKeyInProgress')(document);
      set(createPet, 'x-owner-limit', { items: 10, code: 'pet_limit_reached' })(document);
    },
    pointer: `#${createPet}/x-owner-limit`,
  },
  {
    ruleId: 'animal-store/owned-by',
    violation: 'an owner the service does not know',
    mutate: set('/components/schemas/Pet', 'x-owned-by', 'tenant'),
    pointer: '#/components/schemas/Pet/x-owned-by',
  },
  {
    ruleId: 'animal-store/references',
    violation: 'a reference to a path the contract does not have',
    mutate: parentId('/animals'),
    pointer: `#${petProperties}/parentId/x-references`,
  },
  {
    ruleId: 'animal-store/references',
    violation: 'a reference beside a $ref to a path the contract does not have',
    mutate: parentIdByRef('/animals'),
    pointer: `#${petProperties}/parentId/x-references`,
  },
  {
    ruleId: 'animal-store/references',
    violation: 'a reference that is no path',
    mutate: parentId('pets'),
    pointer: `#${petProperties}/parentId/x-references`,
  },
  {
    ruleId: 'animal-store/references',
    violation: 'a reference to a collection whose items cannot be fetched',
    mutate: (document) => {
      parentId('/pets')(document);
      const paths = at(document, '/paths');
      paths['/pet/{petId}'] = paths['/pets/{petId}'];
      delete paths['/pets/{petId}'];
    },
    pointer: `#${petProperties}/parentId/x-references`,
  },
  {
    ruleId: 'rule/openapi-3-1',
    violation: "openapi: '3.1.x', a placeholder for the patch version",
    mutate: set('', 'openapi', '3.1.x'),
    pointer: '#/openapi',
  },
  {
    ruleId: 'rule/paths-without-version-segment',
    violation: 'a path written under /v1',
    mutate: (document) => {
      const paths = at(document, '/paths');
      paths['/v1/pets/{petId}'] = paths['/pets/{petId}'];
      delete paths['/pets/{petId}'];
    },
    pointer: '#/paths/~1v1~1pets~1{petId}',
  },
  {
    ruleId: 'rule/security-scheme-is-http-bearer',
    violation: 'a basic scheme',
    mutate: set('/components/securitySchemes/bearerAuth', 'scheme', 'basic'),
    pointer: '#/components/securitySchemes/bearerAuth/scheme',
  },
  {
    ruleId: 'rule/security-requirement-names-a-scheme',
    violation: 'an empty requirement, {}, which lets a request through without a key',
    mutate: set('', 'security', [{ bearerAuth: [] }, {}]),
    pointer: '#/security/1',
  },
  {
    ruleId: 'rule/no-callbacks',
    violation: 'an operation with callbacks',
    mutate: set(listPets, 'callbacks', {}),
    pointer: `#${listPets}/callbacks`,
  },
  {
    ruleId: 'rule/get-has-no-request-body',
    violation: 'a GET with a request body',
    mutate: set(listPets, 'requestBody', {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', additionalProperties: false },
          examples: { Empty: { value: {} } },
        },
      },
    }),
    pointer: `#${listPets}/requestBody`,
    alsoFires: [
      { ruleId: 'animal-store/max-body-bytes', severity: 'error', pointer: `#${listPets}` },
      { ruleId: 'rule/operation-with-body-declares-400-413-415', severity: 'error', pointer: `#${listPets}/responses` },
    ],
  },
  {
    ruleId: 'rule/request-body-is-required',
    violation: 'an optional request body',
    mutate: set(`${createPet}/requestBody`, 'required', false),
    pointer: `#${createPet}/requestBody/required`,
  },
  {
    ruleId: 'rule/request-body-schema-is-closed',
    violation: 'a body schema without additionalProperties: false',
    mutate: remove(newPet, 'additionalProperties'),
    pointer: `#${newPet}`,
  },
  {
    ruleId: 'rule/request-body-schema-is-closed',
    violation: 'a body schema with additionalProperties: true',
    mutate: set(newPet, 'additionalProperties', true),
    pointer: `#${newPet}/additionalProperties`,
    // The schema assertion also reports the `then` it failed, on the schema.
    alsoFires: [{ ruleId: 'rule/request-body-schema-is-closed', severity: 'error', pointer: `#${newPet}` }],
  },
  {
    ruleId: 'rule/response-declares-a-body',
    violation: 'a 400 without content',
    mutate: remove(`${responses}/BadRequest`, 'content'),
    pointer: `#${responses}/BadRequest`,
  },
  {
    ruleId: 'rule/response-content-is-json',
    violation: 'a 200 that may answer text as well',
    mutate: set(`${listPets}/responses/200/content`, 'text/plain', {
      schema: { type: 'string' },
      examples: { Text: { value: 'Rex' } },
    }),
    pointer: `#${listPets}/responses/200/content`,
  },
  {
    ruleId: 'rule/response-content-is-json',
    violation: 'a 200 answering text only',
    mutate: (document) => {
      const content = at(document, `${listPets}/responses/200/content`);
      content['text/plain'] = content['application/json'];
      delete content['application/json'];
    },
    pointer: `#${listPets}/responses/200/content`,
  },
  {
    ruleId: 'rule/media-type-has-named-examples',
    violation: 'a request body without examples',
    mutate: remove(`${createPet}/requestBody/content/application~1json`, 'examples'),
    pointer: `#${createPet}/requestBody/content/application~1json/examples`,
  },
  {
    ruleId: 'rule/media-type-has-named-examples',
    violation: 'a response body with an empty map of examples',
    mutate: set(`${listPets}/responses/200/content/application~1json`, 'examples', {}),
    pointer: `#${listPets}/responses/200/content/application~1json/examples`,
  },
  {
    ruleId: 'rule/error-response-uses-error-schema',
    violation: 'a 400 whose body is some other object',
    mutate: set(`${responses}/BadRequest/content/application~1json`, 'schema', { type: 'object' }),
    pointer: `#${responses}/BadRequest/content/application~1json/schema`,
  },
  {
    ruleId: 'rule/unauthorized-response-challenges-with-bearer',
    violation: 'a 401 without WWW-Authenticate',
    mutate: remove(`${responses}/Unauthorized/headers`, 'WWW-Authenticate'),
    pointer: `#${responses}/Unauthorized/headers/WWW-Authenticate`,
  },
  {
    ruleId: 'rule/unauthorized-response-challenges-with-bearer',
    violation: 'a challenge that is not required',
    mutate: set(`${headers}/WWW-Authenticate`, 'required', false),
    pointer: `#${headers}/WWW-Authenticate/required`,
  },
  {
    ruleId: 'rule/unauthorized-response-challenges-with-bearer',
    violation: 'a challenge whose value is any string',
    mutate: remove(`${headers}/WWW-Authenticate/schema`, 'const'),
    pointer: `#${headers}/WWW-Authenticate/schema`,
  },
  {
    ruleId: 'rule/rate-limit-headers-are-required-integers',
    violation: 'X-RateLimit-Reset as a string',
    mutate: (document) => {
      set(`${headers}/X-RateLimit-Reset/schema`, 'type', 'string')(document);
      set(`${headers}/X-RateLimit-Reset`, 'example', '1767225600')(document);
    },
    pointer: `#${headers}/X-RateLimit-Reset/schema/type`,
  },
  {
    ruleId: 'rule/rate-limit-headers-are-required-integers',
    violation: 'X-RateLimit-Limit not required',
    mutate: set(`${headers}/X-RateLimit-Limit`, 'required', false),
    pointer: `#${headers}/X-RateLimit-Limit/required`,
  },
  {
    ruleId: 'rule/retry-after-on-429-and-503',
    violation: 'a 429 without Retry-After',
    mutate: remove(`${responses}/TooManyRequests/headers`, 'Retry-After'),
    pointer: `#${responses}/TooManyRequests/headers/Retry-After`,
  },
  {
    ruleId: 'rule/retry-after-on-429-and-503',
    violation: 'a Retry-After that may be 0',
    mutate: set(`${headers}/Retry-After/schema`, 'minimum', 0),
    pointer: `#${headers}/Retry-After/schema/minimum`,
  },
  {
    ruleId: 'rule/operation-with-parameters-declares-400',
    violation: 'a list with parameters and no 400',
    mutate: remove(`${listPets}/responses`, '400'),
    pointer: `#${listPets}/responses`,
  },
  {
    ruleId: 'rule/operation-with-body-declares-400-413-415',
    violation: 'a create without 413',
    mutate: remove(`${createPet}/responses`, '413'),
    pointer: `#${createPet}/responses`,
    alsoFires: [unused(`${responses}/PayloadTooLarge`)],
  },
  {
    ruleId: 'rule/operation-with-body-declares-400-413-415',
    violation: 'a create without 415',
    mutate: remove(`${createPet}/responses`, '415'),
    pointer: `#${createPet}/responses`,
    alsoFires: [unused(`${responses}/UnsupportedMediaType`)],
  },
  {
    ruleId: 'rule/item-operation-declares-404',
    violation: 'a fetch of one item without 404',
    mutate: remove(`${getPet}/responses`, '404'),
    pointer: `#${getPet}/responses`,
  },
  {
    ruleId: 'rule/created-response-declares-location',
    violation: 'a 201 without Location',
    mutate: remove(`${createPet}/responses/201/headers`, 'Location'),
    pointer: `#${createPet}/responses/201/headers/Location`,
    alsoFires: [unused(`${headers}/Location`)],
  },
  {
    ruleId: 'rule/created-response-declares-location',
    violation: 'a Location that is not required',
    mutate: set(`${headers}/Location`, 'required', false),
    pointer: `#${headers}/Location/required`,
  },
  {
    ruleId: 'rule/deprecated-operation-has-successor',
    violation: 'deprecated: true without x-successor',
    mutate: remove(getPet, 'x-successor'),
    pointer: `#${getPet}`,
  },
  {
    ruleId: 'rule/sunset-operation-declares-410',
    violation: 'x-sunset without a 410',
    mutate: remove(`${getPet}/responses`, '410'),
    pointer: `#${getPet}/responses`,
  },
  {
    ruleId: 'rule/deprecated-operation-responses-declare-deprecation-headers',
    violation: 'a response of a deprecated operation without Sunset',
    mutate: remove(`${getPet}/responses/404/headers`, 'Sunset'),
    pointer: `#${getPet}/responses/404/headers`,
  },
  {
    ruleId: 'rule/probe-declares-no-401-or-429',
    violation: 'a probe that declares a 401',
    mutate: set(`${getHealth}/responses`, '401', {
      description: 'No key.',
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: { NoKey: { value: { code: 'unauthorized', message: 'No key.', status: 401 } } },
        },
      },
    }),
    pointer: `#${getHealth}/responses/401`,
  },
  {
    ruleId: 'rule/probe-declares-no-rate-limit-headers',
    violation: 'a probe whose 200 declares X-RateLimit-Limit',
    mutate: set(`${getHealth}/responses/200`, 'headers', {
      'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
    }),
    pointer: `#${getHealth}/responses/200/headers/X-RateLimit-Limit`,
  },
  {
    ruleId: 'rule/webhook-sent-without-key',
    violation: 'a webhook without security: [] (the root requires the key)',
    mutate: remove(petCreated, 'security'),
    pointer: `#${petCreated}/security`,
    // Behind the key, as the root's `security` puts it, it is asked what every such operation is.
    alsoFires: [
      { ruleId: 'rule/operation-declares-401-429-and-503', severity: 'error', pointer: `#${petCreated}/responses` },
      {
        ruleId: 'rule/response-declares-rate-limit-headers',
        severity: 'error',
        pointer: `#${petCreated}/responses/200`,
      },
    ],
  },
  {
    ruleId: 'rule/webhook-sent-without-key',
    violation: 'a webhook sent with the key',
    mutate: set(petCreated, 'security', [{ bearerAuth: [] }]),
    pointer: `#${petCreated}/security`,
  },
  {
    ruleId: 'animal-store/header-examples',
    violation: 'a Retry-After example of 0',
    mutate: set(`${headers}/Retry-After`, 'example', 0),
    pointer: `#${headers}/Retry-After/example`,
  },
  {
    ruleId: 'animal-store/header-examples',
    violation: 'a next link example without a cursor',
    mutate: set(`${headers}/Link-Next`, 'example', '</v1/pets?limit=20>; rel="next"'),
    pointer: `#${headers}/Link-Next/example`,
  },
  {
    ruleId: 'animal-store/header-examples',
    violation: 'a named example that does not fit',
    mutate: set(`${headers}/Location`, 'examples', { Rex: { value: 'not a reference' } }),
    pointer: `#${headers}/Location/examples/Rex/value`,
  },
  {
    ruleId: 'animal-store/header-examples',
    violation: "an inline required Location whose one example stands for none of the 201's named examples",
    mutate: set(`${createPet}/responses/201/headers`, 'Location', inlineLocation({ example: '/v1/pets/1' })),
    pointer: `#${createPet}/responses/201/headers/Location`,
    alsoFires: [unused(`${headers}/Location`)],
  },
  {
    ruleId: 'animal-store/header-examples',
    violation: "a Location component naming a value for another example than the 201's",
    mutate: set(`${headers}/Location`, 'examples', { Mittens: { value: '/v1/pets/2' } }),
    pointer: `#${createPet}/responses/201/headers/Location`,
  },
  {
    ruleId: 'animal-store/error-examples',
    violation: 'a 400 example saying status 422',
    mutate: set(`${responses}/BadRequest/content/application~1json/examples/ValidationFailed/value`, 'status', 422),
    pointer: `#${responses}/BadRequest/content/application~1json/examples/ValidationFailed/value`,
  },
  {
    ruleId: 'animal-store/error-examples',
    violation: 'a 400 example answering a code x-error-codes gives 404',
    mutate: set(
      `${responses}/BadRequest/content/application~1json/examples/ValidationFailed/value`,
      'code',
      'not_found',
    ),
    pointer: `#${responses}/BadRequest/content/application~1json/examples/ValidationFailed/value`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'an x-successor naming no operation',
    mutate: set(getPet, 'x-successor', 'listAnimals'),
    pointer: `#${getPet}/x-successor`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'an x-successor naming the operation itself',
    mutate: set(getPet, 'x-successor', 'getPet'),
    pointer: `#${getPet}/x-successor`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'a Sunset a day after x-sunset',
    mutate: (document) => {
      set(`${headers}/Sunset/schema`, 'const', 'Fri, 06 Dec 2030 00:00:00 GMT')(document);
      set(`${headers}/Sunset`, 'example', 'Fri, 06 Dec 2030 00:00:00 GMT')(document);
    },
    pointer: `#${headers}/Sunset/schema/const`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'a Sunset that is not required',
    mutate: set(`${headers}/Sunset`, 'required', false),
    pointer: `#${headers}/Sunset`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'a successor Link to another path than x-successor’s',
    mutate: headerConst('Link-Successor', '</v1/animals>; rel="successor-version"'),
    pointer: `#${headers}/Link-Successor/schema/const`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'a Deprecation written as a date',
    mutate: headerConst('Deprecation', '2026-11-21'),
    pointer: `#${headers}/Deprecation/schema/const`,
  },
  {
    ruleId: 'animal-store/deprecation',
    violation: 'a Deprecation at the sunset itself',
    mutate: headerConst('Deprecation', `@${Date.parse('2030-12-05T00:00:00Z') / 1000}`),
    pointer: `#${headers}/Deprecation/schema/const`,
  },
  {
    ruleId: 'animal-store/version-segment',
    violation: 'version 2.0.0 served under /v1',
    mutate: set('/info', 'version', '2.0.0'),
    pointer: '#/servers/0/url',
  },
  {
    ruleId: 'animal-store/version-segment',
    violation: 'a version that is not semantic',
    mutate: set('/info', 'version', 'one'),
    pointer: '#/info/version',
  },
  {
    ruleId: 'animal-store/probes',
    violation: 'a probe without servers of its own (served under /v1)',
    mutate: remove('/paths/~1healthz', 'servers'),
    pointer: '#/paths/~1healthz',
  },
  {
    ruleId: 'animal-store/probes',
    violation: 'a probe served under the version segment',
    mutate: set('/paths/~1healthz', 'servers', [{ url: 'http://localhost:3000/v1' }]),
    pointer: '#/paths/~1healthz/servers/0/url',
  },
  {
    ruleId: 'animal-store/probes',
    violation: 'a probe served on another origin than the API',
    mutate: set('/paths/~1healthz', 'servers', [{ url: 'http://localhost:4000' }]),
    pointer: '#/paths/~1healthz/servers',
  },
  {
    ruleId: 'animal-store/probes',
    violation: 'a probe that is a POST',
    mutate: (document) => {
      const item = at(document, '/paths/~1healthz');
      item.post = item.get;
      delete item.get;
    },
    pointer: '#/paths/~1healthz/post',
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a list without cursor',
    mutate: (document) => {
      (at(document, listPets).parameters as unknown[]).splice(1, 1);
    },
    pointer: `#${listPets}`,
    alsoFires: [unused(`${parameters}/Cursor`)],
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a required limit',
    mutate: set(`${parameters}/Limit`, 'required', true),
    pointer: `#${parameters}/Limit`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a limit without a default',
    mutate: remove(`${parameters}/Limit/schema`, 'default'),
    pointer: `#${parameters}/Limit`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: "a page of more than limit's maximum",
    mutate: set(`${listPets}/responses/200/content/application~1json/schema`, 'maxItems', 500),
    pointer: `#${listPets}/responses/200/content/application~1json/schema`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a cursor that is a number',
    mutate: set(`${parameters}/Cursor`, 'schema', { type: 'integer' }),
    pointer: `#${parameters}/Cursor`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a list whose 200 has no Link',
    mutate: remove(`${listPets}/responses/200/headers`, 'Link'),
    pointer: `#${listPets}/responses/200`,
    alsoFires: [unused(`${headers}/Link-Next`)],
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a Link required on every page, the last one too',
    mutate: set(`${headers}/Link-Next`, 'required', true),
    pointer: `#${headers}/Link-Next`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a Link whose schema takes links to another path only',
    mutate: set(`${headers}`, 'Link-Next', {
      required: false,
      schema: { type: 'string', pattern: '^</v1/animals\\?[^>]*cursor=[^&>]+[^>]*>; rel="next"$' },
      example: '</v1/animals?cursor=abc>; rel="next"',
    }),
    pointer: `#${headers}/Link-Next`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: 'a Link pattern that takes a link without a cursor, or to another relation',
    mutate: set(`${headers}/Link-Next/schema`, 'pattern', '^</v1/pets\\?[^>]*>; rel="[a-z]+"$'),
    pointer: `#${headers}/Link-Next/schema/pattern`,
  },
  {
    ruleId: 'animal-store/lists',
    violation: "a filter with another schema than the item's field",
    mutate: set(`${listPets}/parameters/2`, 'schema', { type: 'string' }),
    pointer: `#${listPets}/parameters/2/schema`,
  },
  {
    ruleId: 'animal-store/create-fields',
    violation: "a create body field with another schema than the item's",
    mutate: set(`${newPet}/properties`, 'name', { type: 'string', maxLength: 5 }),
    pointer: `#${newPet}/properties/name`,
  },
  {
    ruleId: 'animal-store/create-fields',
    violation: 'a field the create requires and the item does not',
    mutate: set('/components/schemas/Pet', 'required', ['id', 'status']),
    pointer: `#${newPet}/required/0`,
  },
  {
    ruleId: 'animal-store/idempotency-key',
    violation: 'a required Idempotency-Key',
    mutate: set(`${parameters}/IdempotencyKey`, 'required', true),
    pointer: `#${parameters}/IdempotencyKey/required`,
  },
  {
    ruleId: 'animal-store/idempotency-key',
    violation: 'an Idempotency-Key without x-retention-hours',
    mutate: remove(`${parameters}/IdempotencyKey`, 'x-retention-hours'),
    pointer: `#${parameters}/IdempotencyKey`,
  },
  {
    ruleId: 'animal-store/idempotency-key',
    violation: 'a 201 without Idempotent-Replayed',
    mutate: remove(`${createPet}/responses/201/headers`, 'Idempotent-Replayed'),
    pointer: `#${createPet}/responses/201`,
    alsoFires: [unused(`${headers}/Idempotent-Replayed`)],
  },
  {
    ruleId: 'animal-store/idempotency-key',
    violation: 'no 409 for a repeat while the first is answered',
    mutate: remove(`${createPet}/responses`, '409'),
    pointer: `#${createPet}`,
    alsoFires: [unused(`${responses}/IdempotencyKeyInProgress`)],
  },
  {
    ruleId: 'animal-store/idempotency-key',
    violation: 'a 409 without Retry-After',
    mutate: remove(`${responses}/IdempotencyKeyInProgress/headers`, 'Retry-After'),
    pointer: `#${responses}/IdempotencyKeyInProgress`,
  },
  {
    ruleId: 'animal-store/idempotency-key',
    violation: 'no 422 for a key reused with another body',
    mutate: remove(`${createPet}/responses`, '422'),
    pointer: `#${createPet}`,
    alsoFires: [unused(`${responses}/IdempotencyKeyReused`)],
  },
  {
    ruleId: 'animal-store/webhooks',
    violation: 'a webhook whose operationId is not its name',
    mutate: set(petCreated, 'operationId', 'onPetCreated'),
    pointer: `#${petCreated}/operationId`,
  },
  {
    ruleId: 'animal-store/webhooks',
    violation: 'a webhook whose signature header is optional',
    mutate: set(`${parameters}/WebhookSignature`, 'required', false),
    pointer: `#${parameters}/WebhookSignature`,
  },
  {
    ruleId: 'animal-store/webhook-delivery',
    violation: 'no retry at all',
    mutate: set('', 'x-webhook-delivery', { timeoutSeconds: 10, retryDelaysSeconds: [] }),
    pointer: '#/x-webhook-delivery',
  },
  {
    ruleId: 'no-unused-components',
    violation: 'a schema nothing references',
    mutate: set('/components/schemas', 'Orphan', { type: 'string' }),
    pointer: '#/components/schemas/Orphan',
  },
  {
    ruleId: 'no-unused-components',
    violation: 'a header nothing references',
    mutate: set('/components/headers', 'X-Orphan', { schema: { type: 'string' } }),
    pointer: '#/components/headers/X-Orphan',
  },
];

const conformingVariants: Array<{ ruleId: string; variant: string; mutations: Mutation[] }> = [
  {
    ruleId: 'animal-store/portable-patterns',
    variant: 'a pattern of characters written as themselves and escaped syntax characters',
    mutations: [set(`${petProperties}/name`, 'pattern', '^[^\0-\x1F\x7F-\x9F]*[!-~¡-\uFFFF]\\.?\\??$')],
  },
  { ruleId: 'every rule', variant: 'the conforming fixture as it is', mutations: [] },
  {
    ruleId: 'animal-store/header-examples',
    variant: "an inline required Location naming its value under the 201's example",
    mutations: [
      set(
        `${createPet}/responses/201/headers`,
        'Location',
        inlineLocation({ examples: { Rex: { value: '/v1/pets/1' } } }),
      ),
      remove(headers, 'Location'),
    ],
  },
  {
    ruleId: 'rule/response-headers-include-rate-limit-headers',
    variant: 'a response with another header besides the three',
    mutations: [set(`${getPet}/responses/404/headers`, 'ETag', { schema: { type: 'string' } })],
  },
  {
    ruleId: 'rule/deprecated-operation-has-sunset',
    variant: 'deprecated: false without x-sunset',
    mutations: [set(getPet, 'deprecated', false), remove(getPet, 'x-sunset')],
  },
  {
    ruleId: 'rule/sunset-is-a-date',
    variant: "x-sunset: '2031-01-31', its Sunset header moved with it",
    mutations: [set(getPet, 'x-sunset', '2031-01-31'), headerConst('Sunset', 'Fri, 31 Jan 2031 00:00:00 GMT')],
  },
  {
    ruleId: 'rule/stability-marker-values',
    variant: 'x-stability: experimental',
    mutations: [set(listPets, 'x-stability', 'experimental')],
  },
  {
    ruleId: 'rule/stability-marker-values',
    variant: 'an operation without x-stability',
    mutations: [remove(listPets, 'x-stability')],
  },
  {
    ruleId: 'animal-store/rate-limits-shape',
    variant: 'a security scheme without x-rate-limits',
    mutations: [remove('/components/securitySchemes/bearerAuth', 'x-rate-limits')],
  },
  {
    ruleId: 'animal-store/error-codes',
    variant: 'a schema without x-error-codes',
    mutations: [remove(errorCode, 'x-error-codes')],
  },
  {
    ruleId: 'animal-store/error-codes',
    variant: 'entries written in another order than the enum',
    mutations: [
      (document) => {
        const codes = at(document, errorCodes);
        at(document, errorCode)['x-error-codes'] = Object.fromEntries(Object.entries(codes).reverse());
      },
    ],
  },
  {
    ruleId: 'animal-store/transitions',
    variant: 'a status without x-transitions',
    mutations: [remove(petStatus, 'x-transitions')],
  },
  {
    ruleId: 'animal-store/transitions',
    variant: 'a state with no entry of its own (no way out of it)',
    mutations: [remove(transitions, 'sold')],
  },
  {
    ruleId: 'animal-store/references',
    variant: "a field naming an item of the contract's collection /pets",
    mutations: [parentId('/pets')],
  },
  {
    ruleId: 'animal-store/references',
    variant: 'the same reference beside a $ref',
    mutations: [parentIdByRef('/pets')],
  },
  {
    ruleId: 'animal-store/owner-limit',
    variant: 'a create that declares its 409, with a limit of three',
    mutations: [set(createPet, 'x-owner-limit', { items: 3, code: 'pet_limit_reached' })],
  },
  {
    ruleId: 'animal-store/owned-by',
    variant: 'items owned by key lines',
    mutations: [set('/components/schemas/Pet', 'x-owned-by', 'key-line')],
  },
  {
    ruleId: 'animal-store/webhook-delivery',
    variant: 'a timeout and the Standard Webhooks schedule',
    mutations: [set('', 'x-webhook-delivery', { timeoutSeconds: 10, retryDelaysSeconds: [5, 300, 1800] })],
  },
  {
    ruleId: 'rule/security-scheme-is-http-bearer',
    variant: 'the scheme written Bearer (its case does not matter)',
    mutations: [set('/components/securitySchemes/bearerAuth', 'scheme', 'Bearer')],
  },
  {
    ruleId: 'rule/request-body-schema-is-closed',
    variant: 'a body that is an array, which has no properties to close',
    mutations: [
      set(`${createPet}/requestBody/content/application~1json`, 'schema', {
        type: 'array',
        items: { $ref: '#/components/schemas/NewPet' },
      }),
      set(`${createPet}/requestBody/content/application~1json/examples/Rex`, 'value', [{ name: 'Rex' }]),
    ],
  },
  {
    ruleId: 'animal-store/lists',
    variant: 'a list without a filter, whose Link has no pattern',
    mutations: [
      (document) => {
        (at(document, listPets).parameters as unknown[]).splice(2, 1);
      },
      remove(`${headers}/Link-Next/schema`, 'pattern'),
    ],
  },
  {
    ruleId: 'animal-store/lists',
    variant: 'a query parameter named after no field of the items (no filter)',
    mutations: [set(`${listPets}/parameters/2`, 'name', 'sort')],
  },
  {
    ruleId: 'animal-store/create-fields',
    variant: 'a body field the item does not have (taken by the create, never answered)',
    mutations: [set(`${newPet}/properties`, 'nickname', { type: 'string' })],
  },
  {
    ruleId: 'animal-store/create-fields',
    variant: 'a body field with a default beside the same $ref as the item’s',
    mutations: [set(`${newPet}/properties/status`, 'default', 'available')],
  },
  {
    ruleId: 'animal-store/idempotency-key',
    variant: 'a create without an Idempotency-Key',
    mutations: [remove(createPet, 'parameters'), remove(parameters, 'IdempotencyKey')],
  },
  {
    ruleId: 'rule/operation-id-camel-case',
    variant: 'a camelCase operationId with a digit',
    mutations: [set(createPet, 'operationId', 'createPetV2')],
  },
];

/** The rules this project adds: configurable ones and its plugin's. */
const isProjectRule = (ruleId: string) => ruleId.startsWith('rule/') || ruleId.startsWith('animal-store/');

describe('redocly.yaml custom rules', () => {
  it('has a violating fixture for every custom rule it configures', () => {
    const configured = Object.keys(
      (parseYaml(readFileSync(repository('redocly.yaml'), 'utf8')) as { rules: Node }).rules,
    )
      .filter(isProjectRule)
      .sort();
    const covered = [...new Set(violations.map(({ ruleId }) => ruleId).filter(isProjectRule))].sort();
    expect(covered).toEqual(configured);
  });

  it.each(violations)('$ruleId fires on $violation', async ({ ruleId, mutate, pointer, alsoFires = [] }) => {
    const expected = [{ ruleId, severity: 'error', pointer }, ...alsoFires];
    const findings = await lintFixture(mutate);
    expect(findings).toEqual(expect.arrayContaining(expected));
    expect(findings, JSON.stringify(findings, null, 1)).toHaveLength(expected.length);
  });

  it.each(conformingVariants)('$ruleId stays silent on $variant', async ({ mutations }) => {
    expect(await lintFixture(...mutations)).toEqual([]);
  });
});

describe('animal-store/portable-patterns', () => {
  it.each(nonPortablePatterns)(
    'names $construct and the line of the pattern that uses it',
    async ({ construct, pattern }) => {
      const document = parseYaml(fixtureSource) as Node;
      set(`${petProperties}/name`, 'pattern', pattern)(document);
      const source = stringifyYaml(document);
      const [problem] = (await lintFromString({ source, absoluteRef: fixturePath, config })).filter(
        ({ ruleId }) => ruleId === 'animal-store/portable-patterns',
      );
      expect(problem?.message).toContain(`\`${construct}\``);
      const location = problem?.location[0];
      expect(location?.source.absoluteRef).toBe(fixturePath);
      // The fixture's first `pattern:` after the Pet schema's line is its name's.
      const lines = source.split('\n');
      const pet = lines.indexOf('    Pet:');
      const line = lines.findIndex((text, index) => index > pet && text.trimStart().startsWith('pattern:')) + 1;
      expect(location && getLineColLocation(location).start.line).toBe(line);
    },
  );
});

describe('the project contract', () => {
  it('lints with no problem at all, errors or warnings', async () => {
    const problems = await lint({ ref: repository('openapi/openapi.yaml'), config });
    expect(problems.map(({ ruleId, message, location }) => `${ruleId} ${location[0]?.pointer}: ${message}`)).toEqual(
      [],
    );
  });
});
