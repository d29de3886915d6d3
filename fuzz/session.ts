// One run against one target: every request goes through `exchange`, which sends it, counts its
// answer, learns what the answer hands out (ids, links) and judges it; findings are kept once per
// check, operation and status.
import type { Contract } from '../contract/contract.ts';
import { type JsonObject, resolveRef } from '../contract/document.ts';
import { responseValidator } from '../contract/response-validator.ts';
import { type CheckName, type CheckSettings, checkAnswer, type Problem } from './checks.ts';
import { type Expectation, expectationOf, IssuedValues } from './expectations.ts';
import { type Operations, readOperations } from './operations.ts';
import { type Addressing, type Answer, curlOf, type FuzzRequest, type KeyPlacement, send } from './requests.ts';
import { type Values, values } from './values.ts';

/** A check that failed, with what reproduces it. */
export interface Finding {
  check: CheckName;
  operationId: string;
  method: string;
  /** The request's path and query, as sent. */
  path: string;
  /** 0 when no answer came. */
  status: number;
  /** What the request tried: `body field text at the maxLength 40`. */
  sent: string;
  expected: string;
  got: string;
  /** One `curl` command line per request that reproduces it, the failing one last. */
  curl: string;
}

/** One exchange: the request, what it may expect, the answer and what the checks found. */
export interface Exchange {
  request: FuzzRequest;
  expectation: Expectation;
  answer: Answer;
  problems: Problem[];
}

export interface SessionOptions {
  origin: string;
  contract: Contract;
  key?: string;
  allow503: boolean;
  maxResponseTimeMs?: number;
  stateful: boolean;
  /** Checks switched off, with why. */
  skipped: ReadonlyMap<CheckName, string>;
  /** How long an answer may take before the request counts as unanswered. */
  timeoutMs: number;
}

export class Session {
  readonly contract: Contract;
  readonly operations: Operations;
  readonly values: Values;
  readonly issued = new IssuedValues();
  readonly stateful: boolean;
  readonly counts: Record<string, { requests: number; statuses: Record<string, number> }> = {};
  readonly findings: Finding[] = [];
  readonly #reported = new Set<string>();
  readonly #addressing: Addressing;
  readonly #checks: CheckSettings;
  readonly #expectation: (request: FuzzRequest) => Expectation;
  readonly #timeoutMs: number;

  constructor(options: SessionOptions) {
    this.contract = options.contract;
    this.operations = readOperations(options.contract);
    this.values = values(options.contract.document);
    this.stateful = options.stateful;
    this.#timeoutMs = options.timeoutMs;
    this.#addressing = {
      origin: options.origin,
      key: options.key,
      placements: new Map(
        this.operations.all.flatMap(
          (operation): Array<[string, KeyPlacement[]]> =>
            operation.keyPlacements ? [[operation.id, operation.keyPlacements]] : [],
        ),
      ),
    };
    this.#checks = {
      responses: responseValidator(options.contract),
      allow503: options.allow503,
      maxResponseTimeMs: options.maxResponseTimeMs,
      skipped: options.skipped,
    };
    this.#expectation = expectationOf({
      contract: options.contract,
      operations: this.operations,
      values: this.values,
      issued: this.issued,
      stateful: options.stateful,
    });
    for (const operation of this.operations.all) this.counts[operation.id] = { requests: 0, statuses: {} };
  }

  /** `node`, its `$ref` followed. */
  resolve(node: object): JsonObject {
    return resolveRef<JsonObject>(this.contract.document, node);
  }

  get requests(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count.requests, 0);
  }

  /** Sends the request, counts and judges its answer, and learns what the answer hands out. */
  async exchange(request: FuzzRequest): Promise<Exchange> {
    const expectation = this.#expectation(request);
    const answer = await send(this.#addressing, request, this.#timeoutMs);
    const count = this.counts[request.operationId] ?? { requests: 0, statuses: {} };
    count.requests += 1;
    count.statuses[answer.status] = (count.statuses[answer.status] ?? 0) + 1;
    this.counts[request.operationId] = count;
    this.#learn(request, answer);
    return { request, expectation, answer, problems: checkAnswer(this.#checks, request, expectation, answer) };
  }

  /** Whether a finding of this check, operation and status is still to report: not reported yet, its check not switched off. */
  isNew(request: FuzzRequest, problem: Pick<Problem, 'check'>, status: number): boolean {
    return (
      !this.#checks.skipped.has(problem.check) &&
      !this.#reported.has(`${problem.check} ${request.operationId} ${status}`)
    );
  }

  /** The exchange's problems not reported yet, as findings. */
  report(exchange: Exchange): void {
    for (const problem of exchange.problems) this.reportProblem(exchange, problem);
  }

  /** A problem as a finding, unless already reported; `before` are the requests that led to it, for its curl lines. */
  reportProblem(
    { request, answer }: Pick<Exchange, 'request' | 'answer'>,
    problem: Problem,
    before: FuzzRequest[] = [],
  ): void {
    if (!this.isNew(request, problem, answer.status)) return;
    this.#reported.add(`${problem.check} ${request.operationId} ${answer.status}`);
    const query = new URLSearchParams(request.query).toString();
    this.findings.push({
      check: problem.check,
      operationId: request.operationId,
      method: request.method,
      path: `${request.path}${query ? `?${query}` : ''}`,
      status: answer.status,
      sent: request.note,
      expected: problem.expected,
      got: problem.got,
      curl: [...before, request].map((each) => curlOf(this.#addressing, each)).join('\n'),
    });
  }

  /** Ids in a successful answer's body and `Location`, parameter values in its `rel="next"` link; a delete forgets its id. */
  #learn(request: FuzzRequest, answer: Answer): void {
    if (answer.status < 200 || answer.status >= 300) return;
    const operation = this.operations.byId.get(request.operationId);
    if (!operation) return;
    if (operation.contract.method === 'DELETE') {
      for (const parameter of operation.parameters)
        if (parameter.in === 'path' && request.pathParams[parameter.name] !== undefined)
          this.issued.delete(parameter.resolved, request.pathParams[parameter.name] as string);
      return;
    }
    const location = answer.headers.get('Location');
    if (location !== null) this.#learnFromPath(new URL(location, 'http://location.invalid').pathname);
    const next = nextLink(answer);
    if (next !== undefined) {
      const query = new URL(next, 'http://link.invalid').searchParams;
      for (const parameter of operation.parameters)
        if (parameter.issuedByApi && query.has(parameter.name))
          this.issued.add(parameter, query.get(parameter.name) as string);
    }
    const declared = operation.contract.responses[String(answer.status)]?.definition.content as
      | Record<string, { schema?: object }>
      | undefined;
    const schema = declared && Object.values(declared)[0]?.schema;
    if (schema === undefined) return;
    try {
      this.#collect(operation.contract.path, schema, JSON.parse(answer.text), 0);
    } catch {
      // Not JSON: the response checks say so.
    }
  }

  /** The path parameters of the operation a served path (`/v1/pets/42`) reaches, as ids the API handed out. */
  #learnFromPath(path: string): void {
    const match = this.contract.match(path);
    if (!match) return;
    const operation = match.path.operationFor('GET') ?? match.path.operations[0];
    const read = operation && this.operations.byId.get(operation.operationId);
    for (const parameter of read?.parameters ?? [])
      if (parameter.in === 'path' && match.params[parameter.name] !== undefined)
        this.issued.add(parameter.resolved, match.params[parameter.name] as string);
  }

  #collect(path: string, node: object, value: unknown, depth: number): void {
    const schema = resolveRef<JsonObject>(this.contract.document, node);
    if (this.operations.handsOut(schema, path) && (typeof value === 'number' || typeof value === 'string'))
      this.issued.add(schema, String(value));
    if (depth > 8 || typeof value !== 'object' || value === null) return;
    for (const keyword of ['allOf', 'anyOf', 'oneOf'])
      for (const part of (schema[keyword] as object[] | undefined) ?? []) this.#collect(path, part, value, depth + 1);
    if (Array.isArray(value)) {
      if (typeof schema.items === 'object' && schema.items !== null)
        for (const item of value) this.#collect(path, schema.items, item, depth + 1);
      return;
    }
    const properties = (schema.properties ?? {}) as Record<string, object>;
    for (const [name, property] of Object.entries(value))
      if (properties[name]) this.#collect(path, properties[name], property, depth + 1);
  }
}

/** The target of an answer's `Link: <...>; rel="next"`, if it has one. */
export function nextLink(answer: Answer): string | undefined {
  return /<([^>]*)>\s*;\s*rel="?next"?/.exec(answer.headers.get('Link') ?? '')?.[1];
}
