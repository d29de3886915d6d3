// Requests generated from the JSON Schemas of each operation's parameters and body, valid ones
// and ones that break exactly one rule, and what the answer to each must satisfy.
import fc from 'fast-check';
import type { ParameterObject } from 'openapi-typescript';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionRoleOf } from '../../../contract/collections.ts';
import type { OperationId } from '../../../contract/contract.ts';
import { type Invalid, schemaArbitraries } from '../../../fuzz/schema-arbitraries.ts';
import { reshapesPath, sendableAsHeader } from '../../../fuzz/values.ts';
import type { Pet } from '../../../generated/openapi.ts';
import { jsonContent, operation, requestBody, resolve } from '../contract-document.ts';
import { defined } from '../defined.ts';
import { type ApiRequest, type ApiResponse, responseProblems } from './client.ts';

export type Schema = Record<string, unknown>;

const { validValues, invalidValues } = schemaArbitraries(loadContract().document);

/** A generated request, with the operation it is meant for. */
export interface Generated extends ApiRequest {
  operationId: OperationId;
}

/** A request that breaks one rule of the contract, the rule, and the Error code that rejects it. */
export interface Flawed extends Generated {
  flaw: string;
  code: string;
  /** The parameter or body field the Error message must name. */
  field?: string;
}

/**
 * Parameters whose valid values are only those the service issued: the opaque `cursor`. A
 * positive request leaves them out; a generated value, even one its schema allows, is a forgery.
 */
const SERVICE_ISSUED: ReadonlyMap<string, string> = new Map([['cursor', 'invalid_cursor']]);

/**
 * The code that refuses a header parameter's bad value. A valid request leaves header parameters
 * out: whether an `Idempotency-Key` is accepted depends on what it was sent with before.
 */
const HEADER_CODES: ReadonlyMap<string, string> = new Map([['Idempotency-Key', 'invalid_idempotency_key']]);

function parametersOf(operationId: OperationId): ParameterObject[] {
  return (operation(operationId).operation.parameters ?? []).map((parameter) => resolve<ParameterObject>(parameter));
}

export function bodySchemaOf(operationId: OperationId): Schema | undefined {
  const body = requestBody(operationId);
  return body === undefined ? undefined : (jsonContent(body).schema as Schema | undefined);
}

/**
 * This service's rule for integers as text (the product's decisions, beyond what JSON Schema says):
 * one value has one spelling, plain decimal digits without sign, padding, fraction or exponent.
 */
function nonCanonicalIntegers(schema: unknown): fc.Arbitrary<Invalid> | undefined {
  if ((resolve(schema as Schema) as Schema).type !== 'integer') return undefined;
  return fc
    .integer({ min: 0, max: 1_000_000 })
    .chain((value) => fc.constantFrom(`0${value}`, `+${value}`, `${value}.0`, `${value}e0`, ` ${value}`))
    .map((value) => ({ value, flaw: 'not written in canonical decimal digits' }));
}

/** Parameter values as text; an id is as likely one the service assigned as any in range. */
function validText(parameter: ParameterObject): fc.Arbitrary<string> {
  const values = validValues(parameter.schema);
  const assigned =
    parameter.in === 'path' &&
    (resolve(defined(parameter.schema, `a schema for path parameter ${parameter.name}`)) as Schema).type === 'integer'
      ? [fc.integer({ min: 1, max: 300 })]
      : [];
  return fc.oneof(values, ...assigned).map(String);
}

/** The parts of a request that its operation's parameters and body schemas govern. */
interface Parts {
  query: Record<string, string>;
  path: Record<string, string>;
  header?: Record<string, string>;
  json?: unknown;
}

function build(operationId: OperationId, { query, path, header, json }: Parts): Generated {
  // A body goes as the media type the operation declares (a merge patch's is not application/json).
  const mediaType = loadContract().operation(operationId).bodyMediaType;
  const headers = { ...(json !== undefined && mediaType && { 'Content-Type': mediaType }), ...header };
  return {
    operationId,
    method: operation(operationId).method,
    path: operation(operationId).path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(defined(path[name], `a value for path parameter ${name}`)),
    ),
    query,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(json === undefined ? {} : { json }),
  };
}

function validParts(operationId: OperationId): fc.Arbitrary<Parts> {
  const parameters = parametersOf(operationId);
  const query = parameters.filter((parameter) => parameter.in === 'query' && !SERVICE_ISSUED.has(parameter.name));
  const path = parameters.filter((parameter) => parameter.in === 'path');
  const bodySchema = bodySchemaOf(operationId);
  return fc.record({
    query: fc
      .record(Object.fromEntries(query.map((parameter) => [parameter.name, validText(parameter)])), {
        requiredKeys: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      })
      .map((values) => ({ ...values })),
    path: fc
      .record(Object.fromEntries(path.map((parameter) => [parameter.name, validText(parameter)])))
      .map((values) => ({ ...values })),
    json: bodySchema === undefined ? fc.constant(undefined) : validValues(bodySchema),
  });
}

/** Requests whose every parameter and body its operation's schemas allow. */
export function validRequests(operationId: OperationId): fc.Arbitrary<Generated> {
  return validParts(operationId).map((parts) => build(operationId, parts));
}

/** Valid requests with one parameter or the body replaced by a value that breaks one rule of its schema. */
export function flawedRequests(operationId: OperationId): fc.Arbitrary<Flawed> {
  const valid = validParts(operationId);
  const mutations: fc.Arbitrary<Flawed>[] = [];
  for (const parameter of parametersOf(operationId)) {
    const location = parameter.in as 'query' | 'path' | 'header';
    // A precondition header (`If-Match`) is no input to refuse: a value that matches no ETag is a
    // 412, whatever its form.
    if (location === 'header' && !HEADER_CODES.has(parameter.name)) continue;
    const withValue = (parts: Parts, value: unknown, flaw: string, code: string): Flawed => ({
      ...build(operationId, { ...parts, [location]: { ...parts[location], [parameter.name]: String(value) } }),
      flaw: `${location} parameter ${parameter.name} ${flaw}`,
      code,
      field: parameter.name,
    });
    const flaws = [invalidValues(parameter.schema, 'text'), nonCanonicalIntegers(parameter.schema)].filter(
      (flaw) => flaw !== undefined,
    );
    const invalid = (flaws.length === 0 ? undefined : fc.oneof(...flaws))?.filter(
      (candidate) =>
        (location !== 'path' || !reshapesPath(String(candidate.value))) &&
        (location !== 'header' || sendableAsHeader(String(candidate.value))),
    );
    const invalidCode =
      location === 'header'
        ? defined(HEADER_CODES.get(parameter.name), `the code refusing header parameter ${parameter.name}`)
        : 'validation_failed';
    if (invalid)
      mutations.push(
        fc.tuple(valid, invalid).map(([parts, { value, flaw }]) => withValue(parts, value, flaw, invalidCode)),
      );
    const issuedOnlyCode = SERVICE_ISSUED.get(parameter.name);
    if (issuedOnlyCode !== undefined) {
      mutations.push(
        fc
          .tuple(valid, validValues(parameter.schema))
          .map(([parts, value]) => withValue(parts, value, 'not issued by the service', issuedOnlyCode)),
      );
    }
  }
  const bodySchema = bodySchemaOf(operationId);
  const invalidBody = bodySchema === undefined ? undefined : invalidValues(bodySchema, 'json');
  if (invalidBody) {
    mutations.push(
      fc.tuple(valid, invalidBody).map(([parts, { value, flaw, field }]) => ({
        ...build(operationId, { ...parts, json: value }),
        flaw: `body ${flaw}`,
        code: 'validation_failed',
        ...(field === undefined ? {} : { field }),
      })),
    );
  }
  return fc.oneof(...mutations);
}

/** What the answer to a valid request must satisfy, beyond the contract's declaration. */
export function acceptanceProblems(request: Generated, response: ApiResponse): string[] {
  const problems = responseProblems(request.operationId, response);
  const body = response.body as { code?: string; details?: Array<{ name: string }> } | undefined;
  const contract = loadContract();
  const { collection, role } = collectionRoleOf(contract, request.operationId) ?? {};
  const declared = contract.operation(request.operationId);
  const accepted =
    (response.status >= 200 && response.status < 300) ||
    // An id in range that the service never assigned (or assigned to another key line), where the contract declares a 404.
    (response.status === 404 &&
      declared.responses['404'] !== undefined &&
      declared.parameters.some((parameter) => parameter.in === 'path')) ||
    // A change of status the item's present status does not allow (its `x-transitions`).
    (role === 'update' && response.status === 409 && body?.code === 'invalid_transition') ||
    // A field that names an item of another collection (its `x-references`) naming one that does not exist.
    ((role === 'create' || role === 'update') &&
      response.status === 400 &&
      body?.code === 'validation_failed' &&
      collection?.fields.some((field) => field.references !== undefined && field.name === body.details?.[0]?.name)) ||
    // A create beyond the owner's `x-owner-limit` (other cases may hold some of its items at the moment).
    (role === 'create' && response.status === 409 && body?.code === collection?.ownerLimit?.code) ||
    // The rule of webhook targets the contract cannot state as a schema: https, to a public address.
    (request.operationId === 'createWebhookEndpoint' &&
      response.status === 400 &&
      body?.code === 'validation_failed' &&
      body.details?.[0]?.name === 'url');
  if (!accepted) return [...problems, `a valid request was refused with ${response.status}`];
  if (request.operationId === 'listPets' && response.status === 200) {
    const pets = response.body as Pet[];
    const limit = Number(request.query?.limit ?? 20);
    if (pets.length > limit) problems.push(`${pets.length} animals returned for limit ${limit}`);
    const status = request.query?.status;
    if (status !== undefined && pets.some((pet) => pet.status !== status))
      problems.push(`an animal with another status than ${status} returned`);
  }
  if (request.operationId === 'createPet' && response.status === 201) {
    const sent = request.json as Record<string, unknown>;
    const pet = response.body as Pet;
    const expected = { ...sent, status: sent.status ?? 'available', id: pet.id };
    if (JSON.stringify(Object.entries(pet).sort()) !== JSON.stringify(Object.entries(expected).sort()))
      problems.push(`stored ${JSON.stringify(pet)} for ${JSON.stringify(sent)}`);
    if (response.headers.get('Location') !== `/v1/pets/${pet.id}`)
      problems.push(`Location ${response.headers.get('Location')} is not /v1/pets/${pet.id}`);
  }
  if (request.operationId === 'getPet' && response.status === 200) {
    const id = Number(decodeURIComponent(defined(request.path.split('/').at(-1), 'a last path segment')));
    if ((response.body as Pet).id !== id) problems.push(`asked for id ${id}, got ${(response.body as Pet).id}`);
  }
  return problems;
}

/** What the answer to a request that breaks one rule must satisfy. */
export function rejectionProblems(request: Flawed, response: ApiResponse): string[] {
  const problems = responseProblems(request.operationId, response);
  if (response.status !== 400) return [...problems, `a request with ${request.flaw} got ${response.status}, not 400`];
  const body = response.body as { code?: string; message?: string } | undefined;
  if (body?.code !== request.code) problems.push(`code ${body?.code} instead of ${request.code} for ${request.flaw}`);
  if (request.field !== undefined && !body?.message?.includes(request.field))
    problems.push(`the message does not name ${JSON.stringify(request.field)}`);
  return problems;
}
