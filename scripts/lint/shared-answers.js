// Redocly preprocessor: the answers and headers every operation behind the API key shares are
// written once, in the root's `x-shared-answers`, and added here to each such operation that does
// not state them itself, before the contract is linted and when it is bundled, so that the lint,
// the bundle in generated/ and everything read from it see every operation whole while a path
// file holds only what is its own. The extension itself never reaches the bundle.
import path from 'node:path';

const EXTENSION = 'x-shared-answers';

/** Status codes in the order the contract writes them: `2XX` after `299`, `default` last. */
function statusOrder(code) {
  if (code === 'default') return 1000;
  return Number(code.replace(/X/g, '9'));
}

/** `object` with `key: value` set where the contract's order of response keys puts it. */
function withResponse(responses, code, value) {
  const entries = Object.entries(responses);
  const at = entries.findIndex(([existing]) => statusOrder(existing) > statusOrder(code));
  entries.splice(at === -1 ? entries.length : at, 0, [code, value]);
  for (const key of Object.keys(responses)) delete responses[key];
  Object.assign(responses, Object.fromEntries(entries));
}

/** A response's headers, created after its description (where a person writes them) when it has none. */
function headersOf(response) {
  if (response.headers === undefined) {
    const { description, ...rest } = response;
    for (const key of Object.keys(response)) delete response[key];
    Object.assign(response, description === undefined ? {} : { description }, { headers: {} }, rest);
  }
  return response.headers;
}

/** A relative `$ref` of the file `from`, as the file `to` must write it. */
function rebased(ref, from, to) {
  if (ref.startsWith('#') || /^[a-z]+:/i.test(ref)) return ref;
  const [file, pointer] = ref.split('#');
  const target = path.posix.resolve(path.posix.dirname(from), file);
  const relative = path.posix.relative(path.posix.dirname(to), target);
  const written = relative.startsWith('.') ? relative : `./${relative}`;
  return pointer === undefined ? written : `${written}#${pointer}`;
}

/** A deep copy of `node` (read in the file `from`) whose relative `$ref`s work in the file `to`. */
function copied(node, from, to) {
  if (Array.isArray(node)) return node.map((item) => copied(item, from, to));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? rebased(value, from, to) : copied(value, from, to),
    ]),
  );
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `object` with `entries` set before its first key of `before` (at its end when it has none), keys it has kept. */
function withEntries(object, entries, before) {
  const current = Object.entries(object);
  const at = current.findIndex(([key]) => before.includes(key));
  const added = Object.entries(entries).filter(([key]) => object[key] === undefined);
  current.splice(at === -1 ? current.length : at, 0, ...added);
  for (const key of Object.keys(object)) delete object[key];
  Object.assign(object, Object.fromEntries(current));
}

/**
 * Gives each webhook what `x-shared-answers.webhooks` declares for all of them (`security`,
 * `parameters`, `responses`) where it states none of its own, in the places a person writes
 * them. An answer is copied into the webhook's file, as the webhook would state its own.
 */
function shareWithWebhooks(root, shared, ctx) {
  if (shared.webhooks === undefined) return;
  const { security, parameters, responses = {} } = shared.webhooks;
  for (const item of Object.values(root.webhooks ?? {})) {
    const resolved = item.$ref === undefined ? { node: item, location: ctx.location } : ctx.resolve(item);
    if (resolved.node === undefined) continue;
    const file = resolved.location.source.absoluteRef;
    for (const method of HTTP_METHODS) {
      const operation = resolved.node[method];
      if (operation === undefined) continue;
      const own = {
        ...(security !== undefined && { security }),
        ...(parameters !== undefined && { parameters: copied(parameters, shared.rootFile, file) }),
      };
      withEntries(operation, own, ['requestBody', 'responses']);
      operation.responses ??= {};
      for (const [code, ref] of Object.entries(responses)) {
        if (operation.responses[code] !== undefined) continue;
        // Written in the root, or a file of its own.
        const answer =
          ref.$ref === undefined
            ? { node: ref, location: { source: { absoluteRef: shared.rootFile } } }
            : ctx.resolve(ref);
        if (answer.node === undefined) {
          ctx.report({
            message: `${EXTENSION}: cannot resolve ${ref.$ref} (webhook ${code}).`,
            location: ctx.location,
          });
          continue;
        }
        withResponse(operation.responses, code, copied(answer.node, answer.location.source.absoluteRef, file));
      }
    }
  }
}

/**
 * What the root states, each entry with the file its `$ref` is relative to, so that it can be
 * written into any other file: `responses` every operation behind the key answers, `bodyResponses`
 * by the media type of the request body of those that take one, `headers` on each of their
 * answers, `deprecatedHeaders` on each answer of a deprecated one, too; `webhooks` as written.
 */
function sharedAnswers(declared, rootFile, ctx) {
  const refs = (entries = {}) =>
    Object.entries(entries).map(([name, ref]) => {
      const resolved = ctx.resolve(ref);
      if (resolved.node === undefined)
        ctx.report({ message: `${EXTENSION}: cannot resolve ${ref.$ref} (${name}).`, location: ctx.location });
      return { name, ref: ref.$ref, file: resolved.location?.source.absoluteRef, node: resolved.node };
    });
  return {
    rootFile,
    webhooks: declared.webhooks,
    responses: refs(declared.responses),
    bodyResponses: Object.fromEntries(
      Object.entries(declared.bodyResponses ?? {}).map(([mediaType, entries]) => [mediaType, refs(entries)]),
    ),
    headers: refs(declared.headers),
    deprecatedHeaders: refs(declared.deprecatedHeaders),
  };
}

function SharedAnswers() {
  let shared;
  return {
    Root: {
      enter(root, ctx) {
        const declared = root[EXTENSION];
        if (declared === undefined) return;
        shared = sharedAnswers(declared, ctx.location.source.absoluteRef, ctx);
        delete root[EXTENSION];
        shareWithWebhooks(root, shared, ctx);
      },
    },
    Operation: {
      leave(operation, ctx) {
        // The probes and the webhooks (`security: []`) answer nothing but their own.
        if (shared === undefined || operation.security !== undefined) return;
        const file = ctx.location.source.absoluteRef;
        const refTo = (entry) => ({ $ref: rebased(entry.ref, shared.rootFile, file) });
        operation.responses ??= {};
        const mediaTypes = Object.keys(operation.requestBody?.content ?? {});
        const answers = [...shared.responses, ...mediaTypes.flatMap((type) => shared.bodyResponses[type] ?? [])];
        const added = new Map();
        for (const answer of answers) {
          if (operation.responses[answer.name] !== undefined) continue;
          withResponse(operation.responses, answer.name, refTo(answer));
          added.set(answer.name, answer);
        }
        const headers = [...(operation.deprecated === true ? shared.deprecatedHeaders : []), ...shared.headers];
        for (const [code, response] of Object.entries(operation.responses)) {
          let node = response;
          let nodeFile = file;
          if (response.$ref !== undefined) {
            // An answer just added is not among the references the walk resolved.
            const answer = added.get(code);
            const resolved = answer ?? ctx.resolve(response);
            node = answer?.node ?? resolved.node;
            nodeFile = answer?.file ?? resolved.location?.source.absoluteRef;
            if (node === undefined) continue;
            // A shared component cannot carry one operation's headers: a deprecated operation
            // answers a copy of it, written into its own file.
            if (operation.deprecated === true) {
              node = copied(node, nodeFile, file);
              nodeFile = file;
              operation.responses[code] = node;
            }
          }
          // The answer's own headers first, then the shared ones in the order the root lists them.
          const written = headersOf(node);
          const own = Object.entries(written).filter(([name]) => !headers.some((header) => header.name === name));
          const sharedHeaders = headers.map((header) => [
            header.name,
            written[header.name] ?? { $ref: rebased(header.ref, shared.rootFile, nodeFile) },
          ]);
          for (const name of Object.keys(written)) delete written[name];
          Object.assign(written, Object.fromEntries([...own, ...sharedHeaders]));
        }
      },
    },
  };
}

export const preprocessors = { 'shared-answers': SharedAnswers };
