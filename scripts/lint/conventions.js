// The conventions of this API that a configurable rule of redocly.yaml cannot say, because they
// relate one node of the contract to another: a header's example to its schema, a deprecated
// operation's headers to its `x-sunset` and `x-successor`, a list's page to its `limit`, a
// create's body to the item it answers, the major version to the servers' version segment.
// scripts/lint/rules-as-data.js registers them under the `animal-store/` plugin; each has a
// violating and a conforming fixture in test/scripts/lint/custom-rules.test.ts. Plain
// JavaScript, so `redocly lint` loads it as is.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const IDEMPOTENCY_KEY = 'idempotency-key';
const STANDARD_WEBHOOKS_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'];

/** One validator set-up for the schemas the rules check values against: the JSON Schema of OpenAPI 3.1. */
const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
// ajv-formats is CommonJS: its plugin is the module itself, and its `default` too.
(addFormatsModule.default ?? addFormatsModule)(ajv);
const validators = new WeakMap();

/** A validator for `schema`, or undefined when it cannot be compiled (a `$ref` out of the file, say). */
function validatorFor(schema) {
  if (validators.has(schema)) return validators.get(schema);
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch {
    validate = undefined;
  }
  validators.set(schema, validate);
  return validate;
}

const isObject = (node) => typeof node === 'object' && node !== null && !Array.isArray(node);
const isRef = (node) => isObject(node) && typeof node.$ref === 'string';

/**
 * `node`, found at `location`, with its `$ref` followed (from the file it stands in), and where
 * the node it names stands; a node that is no `$ref` stays where it is.
 */
function resolved(node, location, ctx) {
  if (!isRef(node)) return { node, location };
  const found = ctx.resolve(node, location.source.absoluteRef);
  return { node: found.node, location: found.location ?? location };
}

/** Whether two schemas, each found where it stands, are the same schema: one node, or equal ones. */
function sameSchema(first, second) {
  if (first.node === second.node) return true;
  if (first.location.absolutePointer === second.location.absolutePointer) return true;
  return JSON.stringify(first.node) === JSON.stringify(second.node);
}

/** A server object's address with its variables at their defaults; a relative one is read against a placeholder origin. */
function addressOf(server) {
  if (!isObject(server) || typeof server.url !== 'string') return undefined;
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (placeholder, name) => server.variables?.[name]?.default ?? placeholder,
  );
  try {
    return new URL(url, 'http://relative.invalid');
  } catch {
    return undefined;
  }
}

/** The root's servers, their `$ref`s followed, each with where it stands. */
function rootServers(root, ctx) {
  return (Array.isArray(root.servers) ? root.servers : []).map((server, index) =>
    resolved(server, ctx.location.child(['servers', index]), ctx),
  );
}

/** The path every root server shares (`/v1`), under which the API's paths are served: the first server's. */
function basePathOf(root, ctx) {
  const [first] = rootServers(root, ctx);
  return (addressOf(first?.node)?.pathname ?? '').replace(/\/$/, '');
}

/** The parameters of an operation, each resolved with where it stands. */
function parametersOf(operation, location, ctx) {
  return (Array.isArray(operation.parameters) ? operation.parameters : [])
    .map((parameter, index) => resolved(parameter, location.child(['parameters', index]), ctx))
    .filter(({ node }) => isObject(node));
}

/** The responses of an operation, each resolved, with its status and where it stands. */
function responsesOf(operation, location, ctx) {
  return Object.entries(isObject(operation.responses) ? operation.responses : {}).map(([status, response]) => ({
    status,
    ...resolved(response, location.child(['responses', status]), ctx),
  }));
}

/** A header of a response by its name (case-insensitive, as in HTTP), resolved; undefined when not declared. */
function headerOf(response, name, ctx) {
  const headers = isObject(response.node?.headers) ? response.node.headers : {};
  const declared = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (declared === undefined) return undefined;
  return resolved(headers[declared], response.location.child(['headers', declared]), ctx);
}

/** The schema of a response's or request body's JSON content (`application/json`, else a `+json` type), resolved. */
function jsonSchemaOf(holder, ctx) {
  const content = isObject(holder.node?.content) ? holder.node.content : {};
  const type = 'application/json' in content ? 'application/json' : Object.keys(content).find((t) => /\+json$/.test(t));
  if (type === undefined) return undefined;
  const media = resolved(content[type], holder.location.child(['content', type]), ctx);
  if (!isObject(media.node) || media.node.schema === undefined) return undefined;
  return resolved(media.node.schema, media.location.child('schema'), ctx);
}

/** Runs `visit` on every operation under the root's `paths` (not the webhooks), with its path, method and location. */
function eachPathOperation(visit) {
  return {
    Paths: {
      PathItem: {
        enter(pathItem, ctx) {
          for (const method of METHODS) {
            if (isObject(pathItem[method]))
              visit(
                { operation: pathItem[method], method, path: String(ctx.key), location: ctx.location.child(method) },
                ctx,
              );
          }
        },
      },
    },
  };
}

/** An operation served without a key and outside the rate limits: `security: []`. */
const isPublic = (operation) => Array.isArray(operation.security) && operation.security.length === 0;

/** The names of a response's body examples, over all its media types. */
function exampleNames(response) {
  const media = Object.values(isObject(response.content) ? response.content : {});
  return [...new Set(media.flatMap((type) => (isObject(type?.examples) ? Object.keys(type.examples) : [])))];
}

/**
 * Every `example` and named example of a header fits the header's schema, and a required header
 * has a value in each named example of its response: Specmatic and Prism pair a header's named
 * example with the body's of the same name, and Specmatic refuses to load a body example whose
 * required header has none. A header component's one `example` stands for every example of the
 * responses that use it; an inline header's does not, for Specmatic.
 */
export function HeaderExamples() {
  return {
    Response: {
      enter(response, ctx) {
        const names = exampleNames(response);
        for (const [name, entry] of Object.entries(isObject(response.headers) ? response.headers : {})) {
          const header = resolved(entry, ctx.location.child(['headers', name]), ctx).node;
          if (!isObject(header) || header.required !== true) continue;
          const named = isObject(header.examples) ? header.examples : {};
          const forEvery = isRef(entry) && header.example !== undefined && Object.keys(named).length === 0;
          const missing = forEvery ? [] : names.filter((example) => !(example in named));
          if (missing.length === 0) continue;
          const [first] = missing;
          ctx.report({
            message: `The required header ${name} has no value in the example${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of this response: name one under each (\`examples: { ${first}: { value: ... } }\`)${isRef(entry) ? '' : ', or $ref a header component whose one `example` stands for all'}.`,
            location: ctx.location.child(['headers', name]).key(),
          });
        }
      },
    },
    Header: {
      enter(header, ctx) {
        if (header.schema === undefined) return;
        const schema = resolved(header.schema, ctx.location.child('schema'), ctx);
        const validate = isObject(schema.node) ? validatorFor(schema.node) : undefined;
        if (validate === undefined) return;
        const values = [
          ...(header.example === undefined ? [] : [{ value: header.example, location: ctx.location.child('example') }]),
          ...Object.entries(isObject(header.examples) ? header.examples : {}).flatMap(([name, example]) => {
            const found = resolved(example, ctx.location.child(['examples', name]), ctx);
            return isObject(found.node) && 'value' in found.node
              ? [{ value: found.node.value, location: found.location.child('value') }]
              : [];
          }),
        ];
        for (const { value, location } of values) {
          if (!validate(value))
            ctx.report({
              message: `The header's example ${JSON.stringify(value)} does not fit its schema: ${ajv.errorsText(validate.errors)}.`,
              location,
            });
        }
      },
    },
  };
}

/**
 * The examples of an error response (4xx, 5xx) of an operation behind the key repeat its status in
 * `status`, and show a `code` that `x-error-codes` answers with that status.
 */
export function ErrorExamples() {
  return eachPathOperation(({ operation, location }, ctx) => {
    if (isPublic(operation)) return;
    for (const response of responsesOf(operation, location, ctx)) {
      if (!/^[45]\d\d$/.test(response.status) || !isObject(response.node)) continue;
      const status = Number(response.status);
      for (const [type, node] of Object.entries(isObject(response.node.content) ? response.node.content : {})) {
        const media = resolved(node, response.location.child(['content', type]), ctx);
        if (!isObject(media.node)) continue;
        const schema = media.node.schema && resolved(media.node.schema, media.location.child('schema'), ctx);
        const code = schema && isObject(schema.node) && schema.node.properties?.code;
        const codes =
          code && resolved(code, schema.location.child(['properties', 'code']), ctx).node?.['x-error-codes'];
        for (const [name, example] of Object.entries(isObject(media.node.examples) ? media.node.examples : {})) {
          const found = resolved(example, media.location.child(['examples', name]), ctx);
          const value = isObject(found.node) ? found.node.value : undefined;
          if (!isObject(value)) continue;
          const at = found.location.child('value');
          if (value.status !== status)
            ctx.report({
              message: `The example ${name} of a ${status} says \`status: ${JSON.stringify(value.status)}\`; an Error body repeats the HTTP status.`,
              location: at,
            });
          const entry = isObject(codes) && typeof value.code === 'string' ? codes[value.code] : undefined;
          if (isObject(entry) && entry.status !== status)
            ctx.report({
              message: `The example ${name} answers \`${value.code}\` with ${status}, but \`x-error-codes\` gives ${value.code} the status ${entry.status}.`,
              location: at,
            });
        }
      }
    }
  });
}

/**
 * A deprecated operation's `x-successor` names another operation of the contract, and every
 * response declares the values the service sends as `const`s, required: `Sunset` the first
 * instant of `x-sunset` (an HTTP date), `Link` the successor's path under the servers' base, and
 * `Deprecation` an `@`-prefixed Unix time before the sunset (RFC 9745).
 */
export function Deprecation() {
  let paths = new Map();
  let basePath = '';
  return {
    Root: {
      enter(root, ctx) {
        paths = new Map();
        for (const [path, item] of Object.entries(isObject(root.paths) ? root.paths : {})) {
          const { node } = resolved(item, ctx.location.child(['paths', path]), ctx);
          for (const method of METHODS) {
            const operationId = isObject(node) ? node[method]?.operationId : undefined;
            if (typeof operationId === 'string') paths.set(operationId, path);
          }
        }
        basePath = basePathOf(root, ctx);
      },
    },
    ...eachPathOperation(({ operation, location }, ctx) => {
      if (operation.deprecated !== true) return;
      const successor = operation['x-successor'];
      let link;
      if (successor !== undefined) {
        if (typeof successor !== 'string' || successor === operation.operationId || !paths.has(successor))
          ctx.report({
            message: `\`x-successor\` names ${JSON.stringify(successor)}, which is no other operation of the contract.`,
            location: location.child('x-successor'),
          });
        else link = `<${basePath}${paths.get(successor)}>; rel="successor-version"`;
      }
      const sunsetDate = operation['x-sunset'];
      const sunsetAt =
        typeof sunsetDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(sunsetDate)
          ? Date.parse(`${sunsetDate}T00:00:00Z`)
          : Number.NaN;
      const expected = {
        Sunset: Number.isNaN(sunsetAt) ? undefined : new Date(sunsetAt).toUTCString(),
        Link: link,
      };
      for (const response of responsesOf(operation, location, ctx)) {
        for (const name of DEPRECATION_HEADERS) {
          const header = headerOf(response, name, ctx);
          // A header left out is rule/deprecated-operation-responses-declare-deprecation-headers' to report.
          if (header === undefined || !isObject(header.node)) continue;
          const schema = header.node.schema && resolved(header.node.schema, header.location.child('schema'), ctx);
          const value = schema && isObject(schema.node) ? schema.node.const : undefined;
          if (header.node.required !== true || typeof value !== 'string') {
            ctx.report({
              message: `${name} on a response of a deprecated operation is \`required\`, its value the \`const\` of its schema (what the service sends).`,
              location: header.location,
            });
            continue;
          }
          if (name === 'Deprecation') {
            const seconds = /^@(\d+)$/.exec(value)?.[1];
            if (seconds === undefined || (!Number.isNaN(sunsetAt) && Number(seconds) * 1000 >= sunsetAt))
              ctx.report({
                message: `Deprecation is \`@\` and the Unix time the operation was deprecated, before its sunset (${sunsetDate}); it says ${value}.`,
                location: schema.location.child('const'),
              });
          } else if (expected[name] !== undefined && value !== expected[name]) {
            ctx.report({
              message:
                name === 'Sunset'
                  ? `Sunset says ${value}; \`x-sunset: ${sunsetDate}\` is ${expected.Sunset}.`
                  : `Link says ${value}; the successor ${successor} is ${expected.Link}.`,
              location: schema.location.child('const'),
            });
          }
        }
      }
    }),
  };
}

/** `info.version` is a semantic version whose major version is the last segment, `/v<major>`, of every root server. */
export function VersionSegment() {
  return {
    Root: {
      enter(root, ctx) {
        const version = root.info?.version;
        const major =
          typeof version === 'string' ? /^(\d+)\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/.exec(version)?.[1] : undefined;
        if (major === undefined) {
          ctx.report({
            message: `\`info.version\` is a semantic version (MAJOR.MINOR.PATCH); it is ${JSON.stringify(version)}.`,
            location: ctx.location.child(['info', 'version']),
          });
          return;
        }
        for (const server of rootServers(root, ctx)) {
          const address = addressOf(server.node);
          if (address?.pathname.replace(/\/$/, '') !== `/v${major}`)
            ctx.report({
              message: `The server ${server.node?.url} is not under /v${major}, the major version of ${version}.`,
              location: server.location.child('url'),
            });
        }
      },
    },
  };
}

/**
 * An operation under `paths` marked `security: []` is a probe: a GET, served on the API's own
 * origins (its path's `servers`, the root servers without their version segment) and on no other.
 */
export function Probes() {
  let origins = [];
  return {
    Root: {
      enter(root, ctx) {
        origins = rootServers(root, ctx).map((server) => addressOf(server.node)?.origin);
      },
    },
    Paths: {
      PathItem: {
        enter(pathItem, ctx) {
          const probes = METHODS.filter((method) => isObject(pathItem[method]) && isPublic(pathItem[method]));
          if (probes.length === 0) return;
          for (const method of probes.filter((method) => method !== 'get'))
            ctx.report({
              message: `An operation marked \`security: []\` is a probe for load balancers, a GET; this one is a ${method.toUpperCase()}.`,
              location: ctx.location.child(method).key(),
            });
          const servers = (Array.isArray(pathItem.servers) ? pathItem.servers : []).map((server, index) =>
            resolved(server, ctx.location.child(['servers', index]), ctx),
          );
          for (const server of servers) {
            if (addressOf(server.node)?.pathname !== '/')
              ctx.report({
                message: `A probe is served beside the versioned API, at the root of an origin; ${server.node?.url} is not.`,
                location: server.location.child('url'),
              });
          }
          const served = servers.map((server) => addressOf(server.node)?.origin);
          if (served.length !== origins.length || !origins.every((origin) => served.includes(origin)))
            ctx.report({
              message: `A probe's path lists in \`servers\` every origin of the API and no other (${origins.join(', ')}).`,
              location: servers.length === 0 ? ctx.location.key() : ctx.location.child('servers'),
            });
        },
      },
    },
  };
}

/**
 * A list (a GET answering a JSON array) pages: optional query parameters `limit` (an integer from
 * a positive minimum to a maximum, with a default between) and `cursor` (a string), a page of at
 * most `limit`'s maximum (`maxItems`), and an optional `Link` header on its 200 whose schema
 * takes the next link the service sends; a query parameter named after a field of the items
 * filters by it (contract/collections.ts), so it has that field's schema.
 */
export function Lists() {
  let basePath = '';
  return {
    Root: {
      enter(root, ctx) {
        basePath = basePathOf(root, ctx);
      },
    },
    ...eachPathOperation(({ operation, method, path, location }, ctx) => {
      if (method !== 'get' || isPublic(operation)) return;
      const ok = responsesOf(operation, location, ctx).find(({ status }) => status === '200');
      const page = ok && jsonSchemaOf(ok, ctx);
      if (!isObject(page?.node) || page.node.type !== 'array') return;
      const item = resolved(page.node.items, page.location.child('items'), ctx);
      const query = parametersOf(operation, location, ctx).filter(({ node }) => node.in === 'query');
      const named = (name) => query.find(({ node }) => node.name === name);
      const report = (message, at = location.key()) =>
        ctx.report({ message: `A list (a GET answering an array) ${message}`, location: at });

      const limit = named('limit');
      const cursor = named('cursor');
      if (limit === undefined) report('takes the query parameter `limit`, the size of a page.');
      if (cursor === undefined) report('takes the query parameter `cursor`, the position of the next page.');
      for (const parameter of [limit, cursor])
        if (parameter?.node.required === true)
          report('takes `limit` and `cursor` as optional parameters.', parameter.location);
      const limitSchema = limit && resolved(limit.node.schema, limit.location.child('schema'), ctx);
      const { minimum, maximum, default: fallback, type } = isObject(limitSchema?.node) ? limitSchema.node : {};
      if (
        limit !== undefined &&
        !(
          type === 'integer' &&
          Number.isSafeInteger(minimum) &&
          minimum >= 1 &&
          Number.isSafeInteger(maximum) &&
          maximum >= minimum &&
          Number.isSafeInteger(fallback) &&
          fallback >= minimum &&
          fallback <= maximum
        )
      )
        report(
          'takes `limit` as an integer from a `minimum` of at least 1 to a `maximum`, with a `default` between.',
          limit.location,
        );
      else if (limit !== undefined && page.node.maxItems !== maximum)
        report(
          `answers a page of at most \`limit\`'s maximum, \`maxItems: ${maximum}\`; it says ${page.node.maxItems}.`,
          page.location,
        );
      const cursorSchema = cursor && resolved(cursor.node.schema, cursor.location.child('schema'), ctx);
      if (cursor !== undefined && cursorSchema?.node?.type !== 'string')
        report('takes `cursor` as an opaque string.', cursor.location);

      const next = headerOf(ok, 'Link', ctx);
      if (next === undefined) report('announces the next page in a `Link` header of its 200.', ok.location.key());
      else if (next.node?.required === true)
        report('leaves the `Link` header out of the last page: it is not `required`.', next.location);
      else if (Number.isSafeInteger(fallback)) {
        const target = `${basePath}${path.replace(/\{[^}/]+\}/g, '1')}`;
        const link = `<${target}?limit=${fallback}&cursor=c0>; rel="next"`;
        const schema = next.node?.schema && resolved(next.node.schema, next.location.child('schema'), ctx);
        const validate = isObject(schema?.node) ? validatorFor(schema.node) : undefined;
        if (validate !== undefined && !validate(link))
          report(
            `announces the next page in a \`Link\` header whose schema takes the link to it, such as ${link}.`,
            next.location,
          );
        // A pattern that says what the link is says it wholly: path-absolute, with its cursor, rel="next".
        const unlike = [
          `<${target}?limit=${fallback}>; rel="next"`,
          `<${target}?limit=${fallback}&cursor=c0>; rel="prev"`,
          `<https://api.invalid${target}?limit=${fallback}&cursor=c0>; rel="next"`,
        ];
        const taken = typeof schema?.node?.pattern === 'string' ? unlike.filter((value) => validate?.(value)) : [];
        if (taken.length > 0)
          report(
            `gives its \`Link\` a pattern that takes only the next link: path-absolute, with a cursor, rel="next"; it takes ${taken.join(' and ')}.`,
            schema.location.child('pattern'),
          );
      }

      const fields = isObject(item.node?.properties) ? item.node.properties : {};
      for (const filter of query.filter(({ node }) => node.name !== 'limit' && node.name !== 'cursor')) {
        const name = filter.node.name;
        const field = Object.hasOwn(fields, name)
          ? resolved(fields[name], item.location.child(['properties', name]), ctx)
          : undefined;
        if (field === undefined) continue;
        const schema = resolved(filter.node.schema, filter.location.child('schema'), ctx);
        if (!sameSchema(schema, field))
          report(
            `filters \`${name}\` by the schema of the item field \`${name}\`; this one has another.`,
            schema.location,
          );
      }
    }),
  };
}

/**
 * A create (`POST` answering 201) stores what its body sends as the item it answers: a field the
 * body and the 201's item both have has one schema in both, and a field the body requires the
 * item requires. (A field the body alone has, the create takes and does not answer.)
 */
export function CreateFields() {
  return eachPathOperation(({ operation, method, location }, ctx) => {
    if (method !== 'post' || !isObject(operation.requestBody)) return;
    const created = responsesOf(operation, location, ctx).find(({ status }) => status === '201');
    const item = created && jsonSchemaOf(created, ctx);
    const body = jsonSchemaOf(resolved(operation.requestBody, location.child('requestBody'), ctx), ctx);
    if (!isObject(item?.node?.properties) || !isObject(body?.node?.properties)) return;
    const itemRequired = Array.isArray(item.node.required) ? item.node.required : [];
    for (const [name, node] of Object.entries(body.node.properties)) {
      if (!Object.hasOwn(item.node.properties, name)) continue;
      const at = body.location.child(['properties', name]);
      const sent = resolved(node, at, ctx);
      const answered = resolved(item.node.properties[name], item.location.child(['properties', name]), ctx);
      if (!sameSchema(sent, answered))
        ctx.report({
          message: `The create's body sends \`${name}\` with another schema than the item its 201 answers.`,
          location: at,
        });
    }
    for (const [index, name] of (Array.isArray(body.node.required) ? body.node.required : []).entries()) {
      if (Object.hasOwn(item.node.properties, name) && !itemRequired.includes(name))
        ctx.report({
          message: `The create requires \`${name}\`, which the item its 201 answers does not require.`,
          location: body.location.child(['required', index]),
        });
    }
  });
}

/**
 * An operation that takes an `Idempotency-Key` header takes it as optional, states how long an
 * answer is kept (`x-retention-hours`, a positive integer), marks a replayed 2xx with
 * `Idempotent-Replayed`, and declares the 409 (with `Retry-After`) of a repeat while the first
 * is answered and the 422 of a key reused with another body.
 */
export function IdempotencyKey() {
  return eachPathOperation(({ operation, location }, ctx) => {
    const key = parametersOf(operation, location, ctx).find(
      ({ node }) => node.in === 'header' && String(node.name).toLowerCase() === IDEMPOTENCY_KEY,
    );
    if (key === undefined) return;
    const report = (message, at = location.key()) =>
      ctx.report({ message: `An operation that takes an \`Idempotency-Key\` ${message}`, location: at });
    if (key.node.required === true) report('takes it as an optional header.', key.location.child('required'));
    const hours = key.node['x-retention-hours'];
    if (!Number.isSafeInteger(hours) || hours < 1)
      report('states how long the service keeps an answer, `x-retention-hours`, a positive integer.', key.location);
    const responses = responsesOf(operation, location, ctx);
    for (const response of responses.filter(({ status }) => /^2\d\d$/.test(status) && status !== '204')) {
      if (headerOf(response, 'Idempotent-Replayed', ctx) === undefined)
        report(`marks a replayed ${response.status} with the \`Idempotent-Replayed\` header.`, response.location);
    }
    const inProgress = responses.find(({ status }) => status === '409');
    if (inProgress === undefined) report('declares the 409 of a repeat while the first request is answered.');
    else if (headerOf(inProgress, 'Retry-After', ctx) === undefined)
      report(
        'tells a repeat while the first request is answered when to come back: `Retry-After` on its 409.',
        inProgress.location,
      );
    if (!responses.some(({ status }) => status === '422'))
      report('declares the 422 of a key sent again with another body.');
  });
}

/** Each webhook is a `post` whose operationId is the webhook's name, with the Standard Webhooks headers, required. */
export function Webhooks() {
  return {
    WebhooksMap: {
      enter(webhooks, ctx) {
        for (const [name, item] of Object.entries(webhooks)) {
          const found = resolved(item, ctx.location.child(name), ctx);
          if (!isObject(found.node)) continue;
          const methods = METHODS.filter((method) => isObject(found.node[method]));
          if (methods.length !== 1 || methods[0] !== 'post') {
            ctx.report({
              message: `The webhook ${name} is a POST the service sends, and only that; it has ${methods.join(', ') || 'no operation'}.`,
              location: found.location,
            });
          }
          const post = found.node.post;
          if (!isObject(post)) continue;
          const at = found.location.child('post');
          if (post.operationId !== name)
            ctx.report({
              message: `The operationId of the webhook ${name} is its name, ${name}.`,
              location: post.operationId === undefined ? at.key() : at.child('operationId'),
            });
          const headers = parametersOf(post, at, ctx).filter(({ node }) => node.in === 'header');
          for (const header of STANDARD_WEBHOOKS_HEADERS) {
            const declared = headers.find(({ node }) => String(node.name).toLowerCase() === header);
            if (declared?.node.required !== true)
              ctx.report({
                message: `The webhook ${name} declares the Standard Webhooks header ${header}, required.`,
                location: declared?.location ?? at.key(),
              });
          }
        }
      },
    },
  };
}
