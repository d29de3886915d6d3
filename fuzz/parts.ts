// The parts of a request its operation's parameters and body govern, the one valid request every
// deterministic case starts from, and the request those parts make.
import type { FuzzOperation } from './operations.ts';
import type { Credentials, FuzzRequest, Origin } from './requests.ts';
import type { Session } from './session.ts';
import { asText } from './values.ts';

export type Body = { json: unknown } | { text: string; contentType: string | undefined } | undefined;

export interface Parts {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Body;
  credentials: Credentials;
}

export function requestOf(operation: FuzzOperation, parts: Parts, origin: Origin, note: string): FuzzRequest {
  const { contract } = operation;
  const body =
    parts.body === undefined
      ? {}
      : 'json' in parts.body
        ? {
            body: {
              text: JSON.stringify(parts.body.json),
              contentType: operation.body?.mediaType ?? 'application/json',
            },
            json: parts.body.json,
          }
        : { body: parts.body, ...jsonOf(parts.body.text) };
  return {
    operationId: operation.id,
    method: contract.method,
    path: contract.servedPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parts.path[name] ?? '')),
    pathParams: parts.path,
    query: parts.query,
    headers: parts.headers,
    credentials: parts.credentials,
    ...body,
    origin,
    note,
  };
}

function jsonOf(text: string): { json?: unknown } {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return {};
  }
}

/**
 * The operation's one valid request: its required parameters only, each its first example (or
 * first valid value), an id the API handed out where one is known, and the body's first example.
 */
export function baseParts(session: Session, operation: FuzzOperation): Parts {
  const parts: Parts = { path: {}, query: {}, headers: {}, body: undefined, credentials: 'key' };
  for (const parameter of operation.parameters) {
    if (!parameter.required) continue;
    const known = session.issued.of(parameter.resolved).at(-1);
    const example = parameter.examples.find(({ value }) => session.values.accepts(parameter.schema, value));
    const value = known ?? asText(example ? example.value : session.values.firstValid(parameter.schema));
    parts[parameter.in === 'header' ? 'headers' : parameter.in][parameter.name] = value;
  }
  const { body } = operation;
  if (body) {
    const example = body.examples.find(({ value }) => session.values.accepts(body.schema, value));
    const json = example ? example.value : session.values.firstValid(body.schema);
    parts.body = { json: withKnownIds(session, operation, json) };
  }
  return parts;
}

/** The body with each field that holds an id (by its schema) set to the latest id of that kind the API handed out. */
export function withKnownIds(session: Session, operation: FuzzOperation, json: unknown): unknown {
  const fields = operation.body?.resolved.properties as Record<string, object> | undefined;
  if (!fields || typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const known = Object.entries(fields).flatMap(([name, schema]) => {
    const kind = session.resolve(schema);
    const id = session.operations.identifiers.has(kind) ? session.issued.of(kind).at(-1) : undefined;
    return id === undefined || !(name in json) ? [] : [[name, session.values.fromText(kind, id)]];
  });
  return { ...json, ...Object.fromEntries(known) };
}
