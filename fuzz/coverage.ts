// Phase 2: for each parameter and body field, its boundary values and their neighbours, a
// required one missing, an unknown field where none is allowed, values of the wrong JSON type,
// one at a time on the operation's one valid request; then what surrounds the data: a missing or
// garbled key, a wrong Content-Type, malformed JSON, no body, a body at and one byte over
// `x-max-body-bytes`.
import type { JsonObject } from '../contract/document.ts';
import { boundaries } from './boundaries.ts';
import type { FuzzOperation } from './operations.ts';
import { baseParts, type Parts, requestOf } from './parts.ts';
import type { FuzzRequest } from './requests.ts';
import type { Session } from './session.ts';
import { asText, reshapesPath, sendableAsHeader } from './values.ts';

/** How deep into nested objects of a body the phase goes. */
const DEEPEST_FIELD = 3;
/** Media types sent as the wrong one, the first the operation does not declare. */
const OTHER_MEDIA_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded'];

function coverageRequests(session: Session, operation: FuzzOperation): FuzzRequest[] {
  const base = baseParts(session, operation);
  const requests: FuzzRequest[] = [requestOf(operation, base, 'coverage', 'the operation with its required values')];
  const add = (parts: Partial<Parts>, note: string) =>
    requests.push(requestOf(operation, { ...base, ...parts }, 'coverage', note));

  for (const parameter of operation.parameters) {
    // Its valid values are the API's to hand out: a made-up one says nothing.
    if (parameter.issuedByApi) continue;
    const place = parameter.in === 'header' ? 'headers' : parameter.in;
    const where = `${parameter.in} parameter ${parameter.name}`;
    for (const { value, note } of boundaries(session.values, parameter.schema, 'text')) {
      const text = asText(value);
      if (parameter.in === 'path' && reshapesPath(text)) continue;
      if (parameter.in === 'header' && !sendableAsHeader(text)) continue;
      add({ [place]: { ...base[place], [parameter.name]: text } }, `${where} ${note}`);
    }
    if (parameter.required && parameter.in !== 'path') {
      const { [parameter.name]: _, ...others } = base[place];
      add({ [place]: others }, `without the required ${where}`);
    }
  }

  const { body } = operation;
  if (body && base.body && 'json' in base.body) {
    const json = base.body.json;
    for (const [value, note] of bodyCases(session, body.schema, json, '', 0)) add({ body: { json: value } }, note);
    const text = JSON.stringify(json);
    const otherType = OTHER_MEDIA_TYPES.find((type) => type !== body.mediaType);
    add({ body: { text, contentType: otherType } }, `the body sent as ${otherType}`);
    add({ body: { text, contentType: undefined } }, 'the body sent without a Content-Type');
    add({ body: { text: text.slice(0, -1), contentType: body.mediaType } }, 'a body that is not JSON (cut short)');
    add({ body: undefined }, 'no body');
    const limit = operation.contract.maxBodyBytes;
    const size = Buffer.byteLength(text);
    if (limit !== undefined && size < limit) {
      // White space after the JSON keeps it valid: the body at the limit, then one byte over it.
      add(
        { body: { text: text.padEnd(limit - size + text.length), contentType: body.mediaType } },
        `a body of exactly x-max-body-bytes ${limit} bytes`,
      );
      add(
        { body: { text: text.padEnd(limit - size + text.length + 1), contentType: body.mediaType } },
        `a body one byte over x-max-body-bytes ${limit}`,
      );
    }
  }

  if (operation.requiresKey) {
    add({ credentials: 'none' }, 'no key');
    add({ credentials: 'garbled' }, 'a garbled key');
  }
  return requests;
}

/** The body with one value changed at a time: the body itself, then each field, then the fields of nested objects. */
function bodyCases(
  session: Session,
  schema: object,
  value: unknown,
  field: string,
  depth: number,
): Array<[unknown, string]> {
  const cases: Array<[unknown, string]> = [];
  const where = field === '' ? 'the body' : `body field ${field}`;
  // A whole body of another type or value; the fields of an object body come next.
  const own = session.values.arbitraries.keywords(schema);
  for (const boundary of boundaries(session.values, schema, 'json'))
    if (field !== '' || typeof boundary.value !== 'object' || boundary.value === null || Array.isArray(boundary.value))
      cases.push([boundary.value, `${where} ${boundary.note}`]);
  if (
    own.type !== 'object' ||
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    depth >= DEEPEST_FIELD
  )
    return cases;
  const object = value as Record<string, unknown>;
  const properties = (own.properties ?? {}) as Record<string, JsonObject>;
  const at = (name: string) => (field === '' ? name : `${field}.${name}`);
  for (const name of (own.required as string[] | undefined) ?? []) {
    const { [name]: _, ...others } = object;
    cases.push([others, `${where} without the required ${at(name)}`]);
  }
  if (own.additionalProperties === false) {
    const unknown = ['unexpected', 'unexpected_field', '_unexpected'].find((name) => !(name in properties));
    if (unknown) cases.push([{ ...object, [unknown]: 1 }, `${where} with the unknown field ${at(unknown)}`]);
  }
  for (const [name, property] of Object.entries(properties)) {
    const current = name in object ? object[name] : session.values.firstValid(property);
    for (const [changed, note] of bodyCases(session, property, current, at(name), depth + 1))
      cases.push([{ ...object, [name]: changed }, note]);
  }
  return cases;
}

export async function coveragePhase(session: Session): Promise<void> {
  for (const operation of session.operations.all)
    for (const request of coverageRequests(session, operation)) session.report(await session.exchange(request));
}
