// The changes between two bundled contracts, each classified as a client built against the first
// one sees it: breaking, non-breaking or documentation. api-smart-diff finds and classifies the
// changes; `productClass` below corrects it where it misjudges what this API's clients rely on.
import { apiCompare, type Diff } from 'api-smart-diff';
import { basePathOf } from '../../contract/contract.ts';
import { type JsonObject, type OpenApiDocument, operationObjects, resolveRef } from '../../contract/document.ts';
import { locateInBundle, nodeAlong, type PathSegment, toPointer } from './pointer.ts';

export type ChangeClass = 'breaking' | 'non-breaking' | 'documentation';
export type Stability = 'stable' | 'beta' | 'experimental';

export interface AffectedOperation {
  /** `GET /pets`, as the contract writes it. */
  name: string;
  operationId?: string;
  /** As the base contract marks it, the promise its clients were given; as the working one for a new operation. */
  stability: Stability;
  /** `x-sunset` of an operation the base contract marks deprecated. */
  sunset?: string;
}

export interface Change {
  class: ChangeClass;
  /** What changed, in words: `removed Pet.status`, `changed Limit.maximum from 100 to 50`. */
  what: string;
  /** Where the bundle writes it (the base's bundle for a removal): `#/components/schemas/Pet/properties/status`. */
  pointer: string;
  /** The operations whose requests or responses change; empty for a change of the whole API. */
  operations: AffectedOperation[];
  /** The change removes whole operations. */
  removesOperation: boolean;
  /** Whether the node at `pointer` was added, removed or given another value. */
  action: 'add' | 'remove' | 'replace';
  /** The node before and after the change (`undefined` where it does not exist). */
  before?: unknown;
  after?: unknown;
}

export const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** Keywords that only say something to people. */
const DOCUMENTATION_KEYWORDS = new Set(['description', 'summary', 'example', 'examples', 'title', 'externalDocs']);
/** Keywords whose keys are names chosen by the contract (a property called `description`). */
const NAMING_KEYWORDS = new Set(['properties', 'headers', 'paths', 'responses', 'schemas', 'parameters']);
/** An operation's place in its life: changing it is news for clients, never a break by itself. */
const LIFECYCLE_KEYWORDS = new Set(['deprecated', 'x-stability', 'x-sunset', 'x-successor']);

export function compareContracts(baseContract: OpenApiDocument, workingContract: OpenApiDocument): Change[] {
  const [base, working] = [
    withWebhookPayloadsAsResponses(baseContract),
    withWebhookPayloadsAsResponses(workingContract),
  ];
  const { diffs } = apiCompare(base, working);
  const operations = operationsByPath(base, working);
  const byKey = new Map<string, Change>();
  const add = (change: Change) => {
    const key = `${change.class}\n${change.pointer}\n${change.what}`;
    const known = byKey.get(key);
    if (known === undefined) byKey.set(key, change);
    else for (const operation of change.operations) addOperation(known.operations, operation);
  };

  // Tags are compared by name below: api-smart-diff pairs them by place in the list, so a tag
  // added before others would read as every later tag renamed.
  const reported = diffs.filter(
    (diff) => !(diff.path[0] === 'info' && diff.path[1] === 'version') && diff.path[0] !== 'tags',
  );
  // Changes inside operations first: a component's own diff is reported only where no operation shows it.
  const inOperations = reported.filter((diff) => diff.path[0] === 'paths');
  for (const diff of inOperations) add(toChange(diff, base, working, operations));
  const pointers = new Set([...byKey.values()].map((change) => change.pointer));
  for (const diff of reported.filter((diff) => diff.path[0] !== 'paths')) {
    const change = toChange(diff, base, working, operations);
    if (!pointers.has(change.pointer)) add(change);
  }
  for (const change of tagChanges(base, working)) add(change);
  const basePaths = [basePathOf(base.servers), basePathOf(working.servers)];
  if (basePaths[0] !== basePaths[1]) {
    add({
      class: 'breaking',
      what: `changed the base path from ${basePaths[0] || '/'} to ${basePaths[1] || '/'}`,
      pointer: '#/servers',
      operations: [],
      removesOperation: false,
      action: 'replace',
      before: basePaths[0],
      after: basePaths[1],
    });
  }
  return [...byKey.values()];
}

function toChange(
  diff: Diff,
  base: OpenApiDocument,
  working: OpenApiDocument,
  operations: Map<string, AffectedOperation[]>,
): Change {
  const document = diff.action === 'remove' ? base : working;
  const { segments } = locateInBundle(document, diff.path as PathSegment[]);
  const [first, path, method] = diff.path.map(String);
  const affected =
    first === 'paths' && path !== undefined
      ? (operations.get(path) ?? []).filter(
          (operation) =>
            !HTTP_METHODS.has(method ?? '') ||
            operation.name === path ||
            operation.name.startsWith(`${method?.toUpperCase()} `),
        )
      : [];
  const written = asWritten(segments);
  return {
    class: productClass(diff, base, working),
    what: describe(diff, written),
    pointer: toPointer(written),
    operations: affected,
    removesOperation:
      diff.action === 'remove' && first === 'paths' && diff.path.length === 3 && HTTP_METHODS.has(method ?? ''),
    action: diff.action === 'add' || diff.action === 'remove' ? diff.action : 'replace',
    before: diff.before,
    after: diff.after,
  };
}

/** Where a webhook's payload is compared: `webhook petCreated`, a path no contract can have (no `/`). */
const WEBHOOK_PATH = 'webhook ';

/**
 * The document with each webhook of its `webhooks` also as an operation under `paths`, whose
 * payload (and headers) are the answer: the receiver reads a webhook as a client reads a response,
 * so a field removed from it, or a type widened, breaks receivers, as it would break clients.
 */
function withWebhookPayloadsAsResponses(document: OpenApiDocument): OpenApiDocument {
  const webhooks = (document.webhooks ?? {}) as Record<string, unknown>;
  if (Object.keys(webhooks).length === 0) return document;
  const paths = { ...document.paths };
  for (const [name, node] of Object.entries(webhooks)) {
    const post = resolveRef<JsonObject>(document, node).post as JsonObject | undefined;
    if (post === undefined) continue;
    const { requestBody, parameters, responses: _, ...operation } = post;
    const headers = Object.fromEntries(
      ((parameters as unknown[] | undefined) ?? []).map((parameter) => {
        const { name: header, in: _in, ...definition } = resolveRef<JsonObject>(document, parameter);
        return [header as string, definition];
      }),
    );
    const body = resolveRef<JsonObject>(document, requestBody);
    paths[`${WEBHOOK_PATH}${name}`] = {
      post: {
        ...operation,
        responses: { '200': { description: body.description ?? name, headers, content: body.content } },
      },
    };
  }
  return { ...document, paths };
}

/** A node of a webhook's stand-in operation, as the contract writes it: under `webhooks`, its payload the request body. */
function asWritten(segments: string[]): string[] {
  const [first, path, method, responses, status, ...rest] = segments;
  if (first !== 'paths' || !path?.startsWith(WEBHOOK_PATH)) return segments;
  const name = path.slice(WEBHOOK_PATH.length);
  if (method === undefined) return ['webhooks', name];
  if (responses !== 'responses' || status === undefined)
    return ['webhooks', name, method, ...[responses, status, ...rest].filter((segment) => segment !== undefined)];
  if (rest[0] === 'headers') return ['webhooks', name, method, 'parameters', ...rest.slice(1)];
  return ['webhooks', name, method, 'requestBody', ...rest];
}

/** Tags added, removed or changed, each known by its name: only people read them (documentation). */
function tagChanges(base: OpenApiDocument, working: OpenApiDocument): Change[] {
  type Tag = Record<string, unknown> & { name: string };
  const byName = (document: OpenApiDocument) =>
    new Map(((document.tags as Tag[] | undefined) ?? []).map((tag, index) => [tag.name, { tag, index }]));
  const [before, after] = [byName(base), byName(working)];
  const change = (what: string, index: number, from: unknown, to: unknown, key?: string): Change => ({
    class: 'documentation',
    what,
    pointer: toPointer(key === undefined ? ['tags', index] : ['tags', index, key]),
    operations: [],
    removesOperation: false,
    action: from === undefined ? 'add' : to === undefined ? 'remove' : 'replace',
    before: from,
    after: to,
  });
  const changes: Change[] = [];
  for (const [name, { tag, index }] of before)
    if (!after.has(name)) changes.push(change(`removed tag ${name}`, index, tag, undefined));
  for (const [name, { tag, index }] of after) {
    const old = before.get(name)?.tag;
    if (old === undefined) {
      changes.push(change(`added tag ${name}`, index, undefined, tag));
      continue;
    }
    for (const key of new Set([...Object.keys(old), ...Object.keys(tag)])) {
      const [from, to] = [old[key], tag[key]];
      if (JSON.stringify(from) === JSON.stringify(to)) continue;
      const what =
        from === undefined
          ? `added tag ${name}.${key}`
          : to === undefined
            ? `removed tag ${name}.${key}`
            : `changed tag ${name}.${key} from ${brief(from)} to ${brief(to)}`;
      changes.push(change(what, index, from, to, key));
    }
  }
  return changes;
}

/** api-smart-diff's class, corrected by the rules below where it misjudges this API's clients. */
function productClass(diff: Diff, base: OpenApiDocument, working: OpenApiDocument): ChangeClass {
  const path = diff.path.map(String);
  const keyword = lastKeyword(path);
  const inResponse = path.includes('responses');
  const inRequest = !inResponse && (path.includes('requestBody') || path.includes('parameters'));

  if (path[0] === 'tags' || path[0] === 'info' || (path[0] === 'components' && path[1] === 'examples'))
    return 'documentation';
  if (path.some((segment, index) => DOCUMENTATION_KEYWORDS.has(segment) && !NAMING_KEYWORDS.has(path[index - 1] ?? '')))
    return 'documentation';
  if (LIFECYCLE_KEYWORDS.has(keyword)) return 'non-breaking';
  // A server's address: the gate compares the base path as a whole (compareContracts).
  if (path[0] === 'servers' || path[3] === 'servers' || path[2] === 'servers') return 'non-breaking';
  // api-smart-diff lets a response's type widen (a field made nullable, a string now also a number).
  if (keyword === 'type' && (inResponse || inRequest)) {
    const [before, after] = [typesOf(diff.before), typesOf(diff.after)];
    const lost = (from: string[], to: string[]) => from.some((type) => !to.includes(type));
    return (inResponse ? lost(after, before) : lost(before, after)) ? 'breaking' : 'non-breaking';
  }
  if (inResponse && keyword === 'nullable') return diff.after === true ? 'breaking' : 'non-breaking';
  // A response header that may now be missing: clients read X-RateLimit-*, Retry-After, Link, Location...
  if (inResponse && keyword === 'required' && path.at(-3) === 'headers')
    return diff.before === true && diff.after !== true ? 'breaking' : 'non-breaking';
  // A closed request schema (additionalProperties: false) refuses a field it no longer lists.
  if (
    inRequest &&
    diff.action === 'remove' &&
    path.at(-2) === 'properties' &&
    isClosedSchema(base, diff.path.slice(0, -2))
  )
    return 'breaking';
  if (keyword === 'x-max-body-bytes' && typeof diff.before === 'number' && typeof diff.after === 'number')
    return diff.after < diff.before ? 'breaking' : 'non-breaking';
  if (path.some((segment) => segment.startsWith('x-'))) return 'documentation';
  if (keyword === 'pattern') {
    const change = patternChange(diff.before, diff.after);
    // More strings accepted where clients send them refuses nothing they sent before.
    if (change === 'same' || (change === 'wider' && inRequest)) return 'non-breaking';
  }
  // A limit newly stated on a response narrows only what clients receive.
  if (inResponse && diff.action === 'add' && RESPONSE_LIMIT_KEYWORDS.has(keyword)) return 'non-breaking';
  // A format on a request integer whose range the format holds refuses nothing more.
  if (inRequest && diff.action === 'add' && keyword === 'format' && formatHoldsRange(working, diff.path.slice(0, -1)))
    return 'non-breaking';
  // The error codes are an open set (the Error schema says so): a client handles a code it does
  // not know by the answer's status, so a new code for a new situation breaks no client.
  if (keyword === 'enum' && diff.action === 'add' && hasErrorCodes(working, diff.path.slice(0, -2)))
    return 'non-breaking';
  switch (diff.type) {
    case 'breaking':
      return 'breaking';
    case 'non-breaking':
    case 'deprecated':
      return 'non-breaking';
    case 'annotation':
      return 'documentation';
    default:
      // What api-smart-diff cannot judge (a `const` changed, say): a break inside an operation, to be safe.
      return path[0] === 'paths' ? 'breaking' : 'documentation';
  }
}

/** How the strings a pattern accepts changed: the same ones, more (`wider`), or others. */
type PatternChange = 'same' | 'wider' | 'other';

/**
 * A pattern written another way (say, in the subset every language reads) changes nothing for
 * clients when both accept the same strings; one that accepts more refuses nothing a client sent
 * before. Checked on every code point alone, twice, and before and after a letter: what the
 * contract's patterns decide.
 */
function patternChange(before: unknown, after: unknown): PatternChange {
  if (typeof before !== 'string' || typeof after !== 'string') return 'other';
  const key = `${before}\n${after}`;
  let found = patternChanges.get(key);
  if (found === undefined) {
    let [gained, lost] = [false, false];
    const [old, current] = [new RegExp(before, 'u'), new RegExp(after, 'u')];
    for (let codePoint = 0; !lost && codePoint <= 0x10ffff; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      for (const text of [character, character + character, `a${character}`, `${character}a`]) {
        const [was, is] = [old.test(text), current.test(text)];
        gained ||= is && !was;
        lost ||= was && !is;
      }
    }
    found = lost ? 'other' : gained ? 'wider' : 'same';
    patternChanges.set(key, found);
  }
  return found;
}
/** A pattern shows once per operation that uses it: the comparison runs once per pair. */
const patternChanges = new Map<string, PatternChange>();

const RESPONSE_LIMIT_KEYWORDS = new Set([
  'format',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
]);
const INTEGER_FORMATS: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function formatHoldsRange(document: OpenApiDocument, schemaPath: Diff['path']): boolean {
  const schema = nodeAlong(document, schemaPath as PathSegment[]) as
    | { type?: unknown; format?: string; minimum?: number; maximum?: number }
    | undefined;
  const range = schema?.format === undefined ? undefined : INTEGER_FORMATS[schema.format];
  return (
    range !== undefined &&
    schema?.type === 'integer' &&
    typeof schema.minimum === 'number' &&
    typeof schema.maximum === 'number' &&
    schema.minimum >= range[0] &&
    schema.maximum <= range[1]
  );
}

/** The last segment of a path that is a keyword, not an array index. */
function lastKeyword(path: string[]): string {
  return [...path].reverse().find((segment) => !/^\d+$/.test(segment)) ?? '';
}

function typesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [] : [String(value)];
}

function hasErrorCodes(document: OpenApiDocument, path: readonly PathSegment[]): boolean {
  const schema = nodeAlong(document, path) as Record<string, unknown> | undefined;
  return schema?.['x-error-codes'] !== undefined;
}

function isClosedSchema(document: OpenApiDocument, path: readonly PathSegment[]): boolean {
  const schema = nodeAlong(document, path) as Record<string, unknown> | undefined;
  return schema?.additionalProperties === false || schema?.unevaluatedProperties === false;
}

/** Each path's operations, as the base describes them, and as the working contract for the new ones. */
function operationsByPath(base: OpenApiDocument, working: OpenApiDocument): Map<string, AffectedOperation[]> {
  const found = new Map<string, AffectedOperation[]>();
  for (const document of [base, working]) {
    for (const { path, method, definition } of operationObjects(document)) {
      const list = found.get(path) ?? [];
      const stability = definition['x-stability'];
      addOperation(list, {
        name: path.startsWith(WEBHOOK_PATH) ? path : `${method} ${path}`,
        ...(typeof definition.operationId === 'string' && { operationId: definition.operationId }),
        stability: stability === 'experimental' || stability === 'beta' ? stability : 'stable',
        ...(definition.deprecated === true &&
          typeof definition['x-sunset'] === 'string' && { sunset: definition['x-sunset'] }),
      });
      found.set(path, list);
    }
  }
  return found;
}

function addOperation(list: AffectedOperation[], operation: AffectedOperation): void {
  if (!list.some((known) => known.name === operation.name)) list.push(operation);
}

/** The change in words, naming the node as people know it: `Pet.status`, `GET /pets response 404`. */
function describe(diff: Diff, segments: string[]): string {
  const keyword = segments.at(-2);
  const value = diff.action === 'remove' ? diff.before : diff.after;
  if (keyword === 'required' && typeof value === 'string') {
    return `${subjectOf(segments.slice(0, -2))}.${value} made ${diff.action === 'remove' ? 'optional' : 'required'}`;
  }
  if (keyword === 'enum' && diff.action !== 'replace') {
    const subject = subjectOf(segments.slice(0, -2));
    return diff.action === 'remove'
      ? `removed ${brief(value)} from the values of ${subject}`
      : `added ${brief(value)} to the values of ${subject}`;
  }
  const subject = subjectOf(segments);
  switch (diff.action) {
    case 'add':
      return `added ${subject}`;
    case 'remove':
      return `removed ${subject}`;
    default:
      return `changed ${subject} from ${brief(diff.before)} to ${brief(diff.after)}`;
  }
}

/** A node of the bundle as people know it: `Pet.status`, `GET /pets response 404`, `PetStatus`. */
export function subjectOf(segments: string[]): string {
  const [first, second, third] = segments;
  if (first === 'webhooks' && second !== undefined)
    return `webhook ${second}${restOf(segments.slice(3).filter((segment) => segment !== 'requestBody'))}`;
  if (first === 'components' && second !== undefined && third !== undefined) return third + restOf(segments.slice(3));
  if (first === 'paths' && second !== undefined) {
    if (third !== undefined && HTTP_METHODS.has(third))
      return `${third.toUpperCase()} ${second}${restOf(segments.slice(3))}`;
    return `path ${second}${restOf(segments.slice(2))}`;
  }
  return segments.join('.') || 'the document';
}

function restOf(segments: string[]): string {
  let text = '';
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as string;
    const next = segments[index + 1];
    if (['properties', 'responses', 'headers', 'parameters'].includes(segment) && next !== undefined) {
      text += segment === 'properties' ? `.${next}` : ` ${segment.replace(/s$/, '')} ${next}`;
      index++;
    } else if (segment === 'items') text += '[]';
    else if (segment === 'schema' || segment === 'content' || segments[index - 1] === 'content') continue;
    else text += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  }
  return text;
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
