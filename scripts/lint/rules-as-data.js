// Redocly plugin: the rules a program reads from the contract (`x-rate-limits` on a security
// scheme, `x-max-body-bytes` on an operation that takes a body, `x-error-codes` beside the enum of
// error codes, `x-transitions` beside the enum of a status) must have the shape the server, the docs and the README generator read. The
// plugin also carries the conventions of the API that no configurable rule can say
// (scripts/lint/conventions.js). Plain JavaScript, so `redocly lint` loads it as is.
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  CreateFields,
  Deprecation,
  ErrorExamples,
  HeaderExamples,
  IdempotencyKey,
  Lists,
  Probes,
  VersionSegment,
  Webhooks,
} from './conventions.js';
import { PortablePatterns } from './portable-patterns.js';
import { preprocessors } from './shared-answers.js';

/** The marker an operation's description shows its body limit by (scripts/pipeline/rules-prose.ts). */
const MAX_BODY_BYTES_MARKER = '<!-- x-max-body-bytes -->';

const positiveInteger = { type: 'integer', minimum: 1 };

const RATE_LIMITS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['plans', 'withoutKey', 'ban'],
  properties: {
    plans: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[a-z][a-z0-9-]*$' },
      additionalProperties: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['perMinute', 'perDay'],
            properties: { perMinute: positiveInteger, perDay: positiveInteger },
          },
          { const: 'per-key' },
        ],
      },
    },
    withoutKey: { type: 'string' },
    ban: {
      type: 'object',
      additionalProperties: false,
      required: ['afterRefusals', 'firstBanSeconds', 'doublesWithinSeconds', 'longestBanSeconds'],
      properties: {
        afterRefusals: positiveInteger,
        firstBanSeconds: positiveInteger,
        doublesWithinSeconds: positiveInteger,
        longestBanSeconds: positiveInteger,
      },
    },
  },
};

/**
 * A check that the value of the extension `name` fits `schema`: it reports every misfit at
 * `location` and answers whether the value fits.
 */
function shapeCheck(name, schema) {
  const validate = new Ajv2020({ allErrors: true }).compile(schema);
  return (value, location, ctx) => {
    if (validate(value)) return true;
    for (const error of validate.errors ?? []) {
      ctx.report({ message: `${name}${error.instancePath.replaceAll('/', '.')} ${error.message}.`, location });
    }
    return false;
  };
}

/**
 * A rule for the extension `name` wherever a node of `kind` carries it: its shape checked against
 * `schema`, then, when it fits, what a schema cannot say checked by `check`.
 */
function extensionRule(kind, name, schema, check) {
  const fits = shapeCheck(name, schema);
  return () => ({
    [kind]: {
      enter(node, ctx) {
        const value = node[name];
        if (value === undefined) return;
        const location = ctx.location.child(name);
        if (fits(value, location, ctx)) check(value, node, location, ctx);
      },
    },
  });
}

/** `x-rate-limits` on the security scheme: its shape, a plan for key-less requests, limits that make sense. */
const RateLimitsShape = extensionRule(
  'SecurityScheme',
  'x-rate-limits',
  RATE_LIMITS_SCHEMA,
  (rules, _scheme, location, ctx) => {
    const withoutKey = rules.plans[rules.withoutKey];
    if (withoutKey === undefined || withoutKey === 'per-key') {
      ctx.report({
        message: '`x-rate-limits.withoutKey` must name a plan with fixed limits.',
        location: location.child('withoutKey'),
      });
    }
    for (const [plan, limits] of Object.entries(rules.plans)) {
      if (limits !== 'per-key' && limits.perDay < limits.perMinute) {
        ctx.report({
          message: `Plan ${plan} allows fewer requests a day than a minute.`,
          location: location.child(['plans', plan]),
        });
      }
    }
    if (rules.ban.longestBanSeconds < rules.ban.firstBanSeconds) {
      ctx.report({
        message: 'The longest ban is shorter than the first.',
        location: location.child(['ban', 'longestBanSeconds']),
      });
    }
  },
);

function MaxBodyBytes() {
  // A webhook's body is one the service sends, not one it reads: no limit to state.
  let inWebhooks = false;
  return {
    WebhooksMap: {
      enter() {
        inWebhooks = true;
      },
      leave() {
        inWebhooks = false;
      },
    },
    Operation: {
      enter(operation, ctx) {
        if (inWebhooks) return;
        const limit = operation['x-max-body-bytes'];
        if (operation.requestBody === undefined) {
          if (limit !== undefined)
            ctx.report({
              message: '`x-max-body-bytes` is set on an operation that takes no body.',
              location: ctx.location.child('x-max-body-bytes'),
            });
          else if (typeof operation.description === 'string' && operation.description.includes(MAX_BODY_BYTES_MARKER))
            ctx.report({
              message: `The description says ${MAX_BODY_BYTES_MARKER}, but the operation takes no body and has no limit.`,
              location: ctx.location.child('description'),
            });
          return;
        }
        if (!Number.isSafeInteger(limit) || limit < 1) {
          const location = limit === undefined ? ctx.location.key() : ctx.location.child('x-max-body-bytes');
          ctx.report({
            message: 'An operation that takes a body must set `x-max-body-bytes` to a positive integer.',
            location,
          });
        }
      },
    },
  };
}

const ERROR_CODES_SCHEMA = {
  type: 'object',
  minProperties: 1,
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'meaning'],
    properties: {
      status: { type: 'integer', minimum: 400, maximum: 599 },
      // One line of a Markdown table: no line break, no cell separator.
      meaning: { type: 'string', minLength: 1, pattern: '^[^|\\n]+$' },
    },
  },
};

/** `x-error-codes` gives each value of the enum beside it, and nothing else, a status and a meaning. */
const ErrorCodes = extensionRule('Schema', 'x-error-codes', ERROR_CODES_SCHEMA, (codes, schema, location, ctx) => {
  const values = schema.enum;
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
    ctx.report({ message: '`x-error-codes` stands beside no `enum` of codes.', location });
    return;
  }
  // A code listed twice in the enum is `no-duplicated-enum-values`' to report.
  const listed = new Set(values);
  for (const code of listed) {
    if (!Object.hasOwn(codes, code)) {
      ctx.report({ message: `The code ${code} of the enum has no entry in \`x-error-codes\`.`, location });
    }
  }
  for (const code of Object.keys(codes)) {
    if (!listed.has(code)) {
      ctx.report({
        message: `\`x-error-codes\` has an entry for ${code}, which the enum does not list.`,
        location: location.child(code),
      });
    }
  }
});

const TRANSITIONS_SCHEMA = {
  type: 'object',
  minProperties: 1,
  additionalProperties: { type: 'array', uniqueItems: true, items: { type: 'string' } },
};

/**
 * `x-transitions` maps a state to the states it may go to; every state it names, on either side,
 * is a member of the `enum` beside it, so the server, the mocks and the docs never meet a state
 * the schema does not have.
 */
const Transitions = extensionRule(
  'Schema',
  'x-transitions',
  TRANSITIONS_SCHEMA,
  (transitions, schema, location, ctx) => {
    const values = schema.enum;
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
      ctx.report({ message: '`x-transitions` stands beside no `enum` of states.', location });
      return;
    }
    const states = new Set(values);
    const listed = values.map((value) => `\`${value}\``).join(', ');
    for (const [from, targets] of Object.entries(transitions)) {
      if (!states.has(from)) {
        ctx.report({
          message: `\`x-transitions\` names the state ${from}, which the enum (${listed}) does not list.`,
          location: location.child(from).key(),
        });
      }
      targets.forEach((to, index) => {
        if (!states.has(to)) {
          ctx.report({
            message: `\`x-transitions.${from}\` names the state ${to}, which the enum (${listed}) does not list.`,
            location: location.child([from, index]),
          });
        }
      });
    }
  },
);

const WEBHOOK_DELIVERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['timeoutSeconds', 'retryDelaysSeconds'],
  properties: {
    timeoutSeconds: { type: 'integer', minimum: 1, maximum: 300 },
    retryDelaysSeconds: { type: 'array', minItems: 1, items: positiveInteger },
  },
};

const fitsWebhookDelivery = shapeCheck('x-webhook-delivery', WEBHOOK_DELIVERY_SCHEMA);

/** A contract with `webhooks` states how they are delivered: `x-webhook-delivery` on its root, of the shape the server reads. */
function WebhookDeliveryShape() {
  return {
    Root: {
      enter(root, ctx) {
        const delivery = root['x-webhook-delivery'];
        if (delivery === undefined) {
          if (root.webhooks !== undefined && Object.keys(root.webhooks).length > 0) {
            ctx.report({
              message: 'A contract with `webhooks` must state their delivery in `x-webhook-delivery`.',
              location: ctx.location.child('webhooks').key(),
            });
          }
          return;
        }
        fitsWebhookDelivery(delivery, ctx.location.child('x-webhook-delivery'), ctx);
      },
    },
  };
}

/**
 * `x-references` names, by its path, the collection whose item the field holds the id of: a path
 * of the contract that lists or creates items, with a path of one item (`/pets/{petId}`) beside
 * it, so that the service, the mocks and MSW can look the item up.
 */
function References() {
  let paths = {};
  // The path items' `$ref`s are relative to the root file, not to the schema's.
  let rootFile;
  const resolvePath = (path, ctx) => paths[path] && ctx.resolve(paths[path], rootFile).node;
  const fits = shapeCheck('x-references', { type: 'string', pattern: '^/' });
  const check = (path, location, ctx) => {
    if (path === undefined || !fits(path, location, ctx)) return;
    const collection = resolvePath(path, ctx);
    const itemPath = Object.keys(paths).find(
      (candidate) => candidate.startsWith(`${path}/`) && /^\{[^}/]+\}$/.test(candidate.slice(path.length + 1)),
    );
    if (collection?.get === undefined && collection?.post === undefined) {
      ctx.report({
        message: `\`x-references\` names ${path}, which is no collection of the contract's paths.`,
        location,
      });
    } else if (itemPath === undefined || resolvePath(itemPath, ctx)?.get === undefined) {
      ctx.report({
        message: `\`x-references\` names ${path}, whose items cannot be fetched: the contract has no GET ${path}/{id}.`,
        location,
      });
    }
  };
  return {
    Root: {
      enter(root, ctx) {
        paths = root.paths ?? {};
        rootFile = ctx.location.source.absoluteRef;
      },
    },
    Schema: {
      enter(schema, ctx) {
        check(schema['x-references'], ctx.location.child('x-references'), ctx);
        // Beside a `$ref` (`petId: {$ref: ./PetId.yaml, x-references: /pets}`), where the walk
        // goes on into the referenced schema and never visits the property's own node.
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          if (property?.$ref !== undefined)
            check(property['x-references'], ctx.location.child(['properties', name, 'x-references']), ctx);
        }
      },
    },
  };
}

/**
 * `x-owner-limit` on a create: the most items one owner may have (a positive integer) and the
 * error code of the 409 beyond it, which the operation must declare.
 */
const OwnerLimit = extensionRule(
  'Operation',
  'x-owner-limit',
  {
    type: 'object',
    required: ['items', 'code'],
    additionalProperties: false,
    properties: { items: positiveInteger, code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } },
  },
  (limit, operation, location, ctx) => {
    if (operation.responses?.['409'] === undefined)
      ctx.report({
        message: `x-owner-limit refuses with 409 ${limit.code}, but the operation declares no 409 answer.`,
        location,
      });
  },
);

/** `x-owned-by` on an item schema: whose items are whose; the one owner the service knows is `key-line`. */
const OwnedBy = extensionRule('Schema', 'x-owned-by', { const: 'key-line' }, () => {});

export default function rulesAsData() {
  return {
    id: 'animal-store',
    rules: {
      oas3: {
        'rate-limits-shape': RateLimitsShape,
        'max-body-bytes': MaxBodyBytes,
        'error-codes': ErrorCodes,
        transitions: Transitions,
        'webhook-delivery': WebhookDeliveryShape,
        'owner-limit': OwnerLimit,
        'owned-by': OwnedBy,
        references: References,
        // The conventions no configurable rule of redocly.yaml can say: scripts/lint/conventions.js.
        'header-examples': HeaderExamples,
        'error-examples': ErrorExamples,
        deprecation: Deprecation,
        'version-segment': VersionSegment,
        probes: Probes,
        lists: Lists,
        'create-fields': CreateFields,
        'idempotency-key': IdempotencyKey,
        webhooks: Webhooks,
        // Every pattern read alike by every language: scripts/lint/portable-patterns.js.
        'portable-patterns': PortablePatterns,
      },
    },
    preprocessors: { oas3: preprocessors },
  };
}
