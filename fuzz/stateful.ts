// Phase 4: sequences that create a resource and use it. Each create (an operation that answers
// 201) is sent with a generated valid body; what its answer hands out is then followed: its
// `Location`, the OpenAPI links its 201 declares, the item fetched by its id, the list of its
// collection paged through `rel="next"` to it, and every operation that takes an id of its kind.
// `use_after_create` fails when what a 201 created cannot be fetched or is missing from its list.
import type fc from 'fast-check';
import { type JsonObject, resolveRef } from '../contract/document.ts';
import { answered, type CheckName, type Problem } from './checks.ts';
import type { FuzzOperation, Link } from './operations.ts';
import { baseParts, type Parts, requestOf } from './parts.ts';
import { runProperty, seedOf, validParts } from './random.ts';
import type { Answer, FuzzRequest } from './requests.ts';
import { type Exchange, nextLink, type Session } from './session.ts';
import { asText } from './values.ts';

/** Pages of a list followed at most to find an item; beyond it the item is neither found nor missed. */
const MOST_PAGES = 50;

interface Outcome {
  steps: Exchange[];
  problem?: Problem;
}

/** The GET operation on `{path}/{id}` of a collection's path: where one item is fetched by its id. */
function itemOperation(session: Session, create: FuzzOperation): FuzzOperation | undefined {
  const pattern = new RegExp(`^${create.contract.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\{[^}/]+\\}$`);
  return session.operations.all.find((each) => each.contract.method === 'GET' && pattern.test(each.contract.path));
}

/** The GET operation on the collection's own path: its list. */
function listOperation(session: Session, create: FuzzOperation): FuzzOperation | undefined {
  return session.operations.all.find(
    (each) => each.contract.method === 'GET' && each.contract.path === create.contract.path,
  );
}

function parsed(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

/** Whether `found` shows what `created` is: every field of the created item, with its value. */
function shows(found: unknown, created: unknown, fields?: ReadonlySet<string>): boolean {
  if (typeof created !== 'object' || created === null || typeof found !== 'object' || found === null)
    return JSON.stringify(found) === JSON.stringify(created);
  return Object.entries(created).every(
    ([name, value]) =>
      fields?.has(name) === false || JSON.stringify((found as Record<string, unknown>)[name]) === JSON.stringify(value),
  );
}

/**
 * The fields the 200 of `operationId` declares (of each item, for a list), when its schema is closed (`additionalProperties:
 * false`): a field the 201 showed that the fetch may not (a secret shown once) is not looked for.
 * Undefined when the schema leaves other fields open.
 */
function fetchedFields(session: Session, operationId: string): ReadonlySet<string> | undefined {
  const { document } = session.contract;
  const operation = session.operations.byId.get(operationId)?.contract;
  const media = (operation?.responses['200']?.definition.content as Record<string, JsonObject> | undefined)?.[
    'application/json'
  ];
  let schema = media?.schema === undefined ? undefined : resolveRef<JsonObject>(document, media.schema);
  // A list's answer: the fields of its items.
  if (schema?.type === 'array' && schema.items !== undefined) schema = resolveRef<JsonObject>(document, schema.items);
  if (schema?.additionalProperties !== false) return undefined;
  return new Set(Object.keys((schema.properties as JsonObject | undefined) ?? {}));
}

/** The value an OpenAPI runtime expression (`$response.body#/id`) names, or a constant as it is. */
function evaluate(expression: unknown, create: Exchange): unknown {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression;
  const { request, answer } = create;
  const pointer = (value: unknown, path: string) =>
    path
      .split('/')
      .slice(1)
      .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
  const [source, rest = ''] = expression.split(/\.(.*)/s);
  if (expression === '$statusCode') return answer.status;
  if (expression === '$method') return request.method;
  if (source === '$response' && rest.startsWith('body')) return pointer(parsed(answer), rest.slice(5));
  if (source === '$response' && rest.startsWith('header.')) return answer.headers.get(rest.slice(7)) ?? undefined;
  if (source === '$request' && rest.startsWith('body')) return pointer(request.json, rest.slice(5));
  if (source === '$request' && rest.startsWith('path.')) return request.pathParams[rest.slice(5)];
  if (source === '$request' && rest.startsWith('query.')) return request.query[rest.slice(6)];
  if (source === '$request' && rest.startsWith('header.')) return request.headers[rest.slice(7)];
  return undefined;
}

/** The request a declared link makes of a create's exchange: its parameters from the answer, the rest valid. */
function linkRequest(session: Session, link: Link, create: Exchange): FuzzRequest | undefined {
  const target = session.operations.byId.get(link.operationId);
  if (!target) return undefined;
  const parts = baseParts(session, target);
  for (const [name, expression] of Object.entries(link.parameters)) {
    const value = evaluate(expression, create);
    const parameter = target.parameters.find((each) => each.name === name.replace(/^(path|query|header)\./, ''));
    if (value === undefined || !parameter) continue;
    parts[parameter.in === 'header' ? 'headers' : parameter.in][parameter.name] = asText(value);
  }
  if (link.requestBody !== undefined) parts.body = { json: evaluate(link.requestBody, create) };
  return requestOf(
    target,
    parts,
    'stateful',
    `the link ${link.name} of ${create.request.operationId}'s ${create.answer.status}`,
  );
}

/** The request a list's `rel="next"` link makes: its path and query, as the API wrote them. */
function pageRequest(session: Session, list: FuzzOperation, link: string): FuzzRequest | undefined {
  const url = new URL(link, 'http://link.invalid');
  const match = session.contract.match(url.pathname);
  if (match?.path.operationFor('GET')?.operationId !== list.id) return undefined;
  const query = Object.fromEntries(url.searchParams);
  const parts: Parts = { path: match.params, query, headers: {}, body: undefined, credentials: 'key' };
  return requestOf(list, parts, 'stateful', 'the next page, as the previous one links it');
}

class Sequence {
  readonly steps: Exchange[] = [];
  problem?: Problem;

  constructor(readonly session: Session) {}

  /** Sends the request after `before`; its exchange while nothing new was found, so the sequence goes on. */
  async step(request: FuzzRequest, before: Exchange[]): Promise<Exchange | undefined> {
    const exchange = await this.session.exchange(request);
    const problem = exchange.problems.find((each) => this.session.isNew(request, each, exchange.answer.status));
    this.steps.splice(0, this.steps.length, ...before, exchange);
    if (problem) {
      this.problem = problem;
      return undefined;
    }
    return exchange;
  }

  fail(exchange: Exchange, check: CheckName, expected: string): void {
    const problem = { check, expected, got: answered(exchange.answer) };
    if (this.session.isNew(exchange.request, problem, exchange.answer.status)) this.problem = problem;
  }
}

async function sequence(session: Session, create: FuzzOperation, request: FuzzRequest): Promise<Outcome> {
  const run = new Sequence(session);
  const created = await run.step(request, []);
  if (created?.answer.status !== 201) return run;
  const item = parsed(created.answer);
  const fetchOperation = itemOperation(session, create);

  // What the 201 hands out: its Location, its declared links.
  const location = created.answer.headers.get('Location');
  const fetches: FuzzRequest[] = [];
  if (location !== null) {
    const path = new URL(location, 'http://location.invalid').pathname;
    const match = session.contract.match(path);
    const target = match?.path.operationFor('GET');
    const fetch = target && session.operations.byId.get(target.operationId);
    if (match && fetch)
      fetches.push(
        requestOf(fetch, { ...baseParts(session, fetch), path: match.params }, 'stateful', `the Location ${location}`),
      );
    else {
      run.fail(
        created,
        'use_after_create',
        `a Location that names an operation to fetch the item with, not ${location}`,
      );
      return run;
    }
  }
  for (const link of create.links['201'] ?? []) {
    const linked = linkRequest(session, link, created);
    if (linked) fetches.push(linked);
  }
  // Neither (most APIs send neither): the item is fetched at the collection's item path by the id
  // its 201 body shows; an id the fuzzer cannot tell is no finding.
  const byId = fetches.length === 0 && fetchOperation && itemParts(session, create, fetchOperation, created, item);
  if (fetchOperation && byId)
    fetches.push(requestOf(fetchOperation, byId, 'stateful', 'the item by the id its 201 body shows'));
  for (const fetch of fetches) {
    const fetched = await run.step(fetch, [created]);
    if (!fetched) return run;
    if (fetch.method !== 'GET') continue;
    if (
      fetched.answer.status < 200 ||
      fetched.answer.status >= 300 ||
      !shows(parsed(fetched.answer), item, fetchedFields(session, fetch.operationId))
    ) {
      run.fail(fetched, 'use_after_create', `the item the 201 created, as it was created, fetched by ${fetch.note}`);
      return run;
    }
  }

  // The list of the collection, paged to the item.
  const list = listOperation(session, create);
  if (list && session.stateful) {
    const found = await pageTo(session, run, list, created, item);
    if (found === false) {
      const last = run.steps.at(-1) as Exchange;
      run.fail(last, 'use_after_create', `the item the 201 created on a page of ${list.id}, followed by rel="next"`);
      return run;
    }
    if (found === undefined) return run;
  }

  // Every other operation that takes an id of the kind just created, given that id.
  const ids = createdIds(session, create, created, item);
  for (const user of session.operations.all) {
    if (user === create || user === fetchOperation || user === list) continue;
    const parts = withIds(session, user, baseParts(session, user), ids);
    if (!parts) continue;
    if (!(await run.step(requestOf(user, parts, 'stateful', `with the id ${create.id} created`), [created])))
      return run;
  }
  return run;
}

/**
 * The parts of the item's fetch with its path parameters set to the created item's id: a field of
 * the item of the parameter's kind, else the field named like the parameter, else `id` when the
 * path has one parameter (`/notes/{noteId}` and `{"id": 7}`). Undefined when a parameter is left.
 */
function itemParts(
  session: Session,
  create: FuzzOperation,
  fetch: FuzzOperation,
  created: Exchange,
  item: unknown,
): Parts | undefined {
  const ids = createdIds(session, create, created, item);
  const fields = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
  const parts = baseParts(session, fetch);
  const inPath = fetch.parameters.filter((parameter) => parameter.in === 'path');
  for (const parameter of inPath) {
    const value =
      ids.get(parameter.resolved) ?? fields[parameter.name] ?? (inPath.length === 1 ? fields.id : undefined);
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    parts.path[parameter.name] = String(value);
  }
  return parts;
}

/** The ids the create handed out, by kind: its Location's path parameters, its item's fields of its own kinds. */
function createdIds(session: Session, create: FuzzOperation, created: Exchange, item: unknown): Map<object, string> {
  const ids = new Map<object, string>();
  const location = created.answer.headers.get('Location');
  const match = location === null ? undefined : session.contract.match(new URL(location, 'http://l.invalid').pathname);
  const fetch = match && session.operations.byId.get(match.path.operations[0]?.operationId ?? '');
  for (const parameter of fetch?.parameters ?? [])
    if (parameter.in === 'path' && match?.params[parameter.name] !== undefined)
      ids.set(parameter.resolved, match.params[parameter.name] as string);
  const content = (create.contract.responses['201']?.definition.content ?? {}) as Record<string, { schema?: object }>;
  const schema = Object.values(content)[0]?.schema;
  const properties = (schema ? session.resolve(schema).properties : undefined) as Record<string, object> | undefined;
  if (properties && typeof item === 'object' && item !== null)
    for (const [name, value] of Object.entries(item)) {
      const kind = properties[name] && session.resolve(properties[name]);
      if (
        kind &&
        session.operations.handsOut(kind, create.contract.path) &&
        ['string', 'number'].includes(typeof value)
      )
        ids.set(kind, String(value));
    }
  return ids;
}

/** The parts with each path or query parameter and body field of a kind in `ids` set to that id; undefined when none is. */
function withIds(
  session: Session,
  operation: FuzzOperation,
  parts: Parts,
  ids: Map<object, string>,
): Parts | undefined {
  let used = false;
  for (const parameter of operation.parameters) {
    const id = ids.get(parameter.resolved);
    if (id === undefined || parameter.in === 'header') continue;
    parts[parameter.in][parameter.name] = id;
    used = true;
  }
  const fields = (operation.body?.resolved.properties ?? {}) as Record<string, object>;
  const body = parts.body && 'json' in parts.body ? parts.body.json : undefined;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const changed: Record<string, unknown> = { ...body };
    for (const [name, schema] of Object.entries(fields)) {
      const kind = session.resolve(schema);
      const id = ids.get(kind);
      if (id === undefined) continue;
      changed[name] = session.values.fromText(kind, id);
      used = true;
    }
    parts.body = { json: changed };
  }
  return used ? parts : undefined;
}

/**
 * Pages through the list, filtered by its query parameters named after the item's fields, to the
 * item: true when found, false when the last page came without it, undefined when the sequence
 * stopped on a problem or the pages ran past `MOST_PAGES`.
 */
async function pageTo(
  session: Session,
  run: Sequence,
  list: FuzzOperation,
  created: Exchange,
  item: unknown,
): Promise<boolean | undefined> {
  const parts = baseParts(session, list);
  if (typeof item === 'object' && item !== null)
    for (const parameter of list.parameters) {
      const value = (item as JsonObject)[parameter.name];
      if (parameter.in === 'query' && value !== undefined && session.values.accepts(parameter.schema, value))
        parts.query[parameter.name] = asText(value);
    }
  let page: FuzzRequest | undefined = requestOf(list, parts, 'stateful', 'the list, filtered by the item');
  for (let pages = 0; page && pages < MOST_PAGES; pages++) {
    const listed = await run.step(page, [created]);
    if (!listed) return undefined;
    const items = parsed(listed.answer);
    if (Array.isArray(items) && items.some((each) => shows(each, item, fetchedFields(session, list.id)))) return true;
    const next = nextLink(listed.answer);
    page = next === undefined ? undefined : pageRequest(session, list, next);
  }
  return page === undefined ? false : undefined;
}

export async function statefulPhase(session: Session, maxExamples: number, seed: number): Promise<void> {
  const runs = Math.max(2, Math.ceil(maxExamples / 10));
  for (const create of session.operations.all) {
    if (!('201' in create.contract.responses)) continue;
    const requests: fc.Arbitrary<FuzzRequest> = validParts(session, create).map((parts) =>
      requestOf(create, parts, 'stateful', `a create of ${create.id}`),
    );
    await runProperty(session, requests, runs, seedOf(seed, create.id, 'stateful'), (request) =>
      sequence(session, create, request),
    );
  }
}
