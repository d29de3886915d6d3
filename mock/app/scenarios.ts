// The mocks' named scenarios (`mock/scenarios.yaml`), checked against the contract once, so that a
// scenario naming a response the contract lacks stops the mock at start, not a test later. No file
// is read here: the servers read the file (scenarios-file.ts), the browser mocks embed it at build.
import type { Contract, ContractOperation } from '../../contract/contract.ts';
import { UsageError } from '../../core/errors.ts';
import { type Delay, parseDelay } from './delay.ts';

export const FAULTS = ['unavailable', 'drop', 'truncate'] as const;
export type Fault = (typeof FAULTS)[number];

/** A declared response of an operation, by status and named example. */
export interface ChosenAnswer {
  status: number;
  /** The name of one of the response's examples; its first when undefined. */
  example?: string;
}

export interface Scenario {
  name: string;
  description: string;
  /** Whether the mock's collections hold the items of the contract's examples, or none. */
  data: 'examples' | 'none';
  /** The response each operation answers with, by operationId; others answer as the service would. */
  answers: Record<string, ChosenAnswer>;
  delay?: Delay;
  fault?: Fault;
}

export type Scenarios = ReadonlyMap<string, Scenario>;

const FIELDS = new Set(['description', 'data', 'answers', 'delay', 'fault']);
const ALL_OPERATIONS = 'all';

/**
 * The scenarios `data` (the parsed scenarios file) defines, checked against `contract`; throws
 * UsageError on the first problem, naming `where` (the file) and the place.
 */
export function readScenarios(contract: Contract, data: unknown, where: string): Scenarios {
  if (!isObject(data)) throw new UsageError(`${where}: expected a mapping of scenario names to scenarios.`);
  const scenarios = new Map<string, Scenario>();
  for (const [name, definition] of Object.entries(data)) {
    scenarios.set(
      name,
      readScenario(contract, name, definition, (problem) => new UsageError(`${where}: scenario "${name}" ${problem}`)),
    );
  }
  if (!scenarios.has('default')) throw new UsageError(`${where}: the scenario "default" is missing.`);
  return scenarios;
}

function readScenario(
  contract: Contract,
  name: string,
  definition: unknown,
  problem: (text: string) => UsageError,
): Scenario {
  if (!isObject(definition)) throw problem('must be a mapping with at least a description.');
  const unknown = Object.keys(definition).find((field) => !FIELDS.has(field));
  if (unknown !== undefined)
    throw problem(`has an unknown field "${unknown}"; a scenario may set ${[...FIELDS].join(', ')}.`);
  const { description, data = 'examples', answers = {}, delay, fault } = definition;
  if (typeof description !== 'string' || description.trim() === '') throw problem('needs a one-line description.');
  if (data !== 'examples' && data !== 'none') throw problem(`has data "${String(data)}"; use examples or none.`);
  if (fault !== undefined && !FAULTS.includes(fault as Fault))
    throw problem(`has fault "${String(fault)}"; use one of ${FAULTS.join(', ')}.`);
  let parsedDelay: Delay | undefined;
  if (delay !== undefined) {
    parsedDelay = parseDelay(String(delay));
    if (!parsedDelay)
      throw problem(`has delay "${String(delay)}"; use milliseconds, such as 300, or a range, such as 100-800.`);
  }
  if (!isObject(answers)) throw problem('has answers that are not a mapping of operationIds to responses.');
  const chosen: Record<string, ChosenAnswer> = {};
  for (const [operationId, answer] of Object.entries(answers)) {
    // `all` is every operation behind the key: the probes (`security: []`) answer no 401 or 429.
    const operations =
      operationId === ALL_OPERATIONS
        ? contract.operations.filter((operation) => !operation.isPublic)
        : [contract.operations.find((operation) => operation.operationId === operationId)];
    for (const operation of operations) {
      if (!operation)
        throw problem(
          `answers for operation "${operationId}", which the contract lacks; use one of ${contract.operations.map((known) => known.operationId).join(', ')} or ${ALL_OPERATIONS}.`,
        );
      chosen[operation.operationId] = checkedAnswer(operation, answer, (text) =>
        problem(`answers ${operation.operationId} with ${text}`),
      );
    }
  }
  return {
    name,
    description: description.trim(),
    data,
    answers: chosen,
    ...(parsedDelay && { delay: parsedDelay }),
    ...(fault !== undefined && { fault: fault as Fault }),
  };
}

/** The scenario called `name`; a UsageError naming the known ones when there is none. */
export function scenarioNamed(scenarios: Scenarios, name: string): Scenario {
  const scenario = scenarios.get(name);
  if (!scenario)
    throw new UsageError(`There is no scenario "${name}"; the mock knows ${[...scenarios.keys()].join(', ')}.`);
  return scenario;
}

/** `answer` if it names a response `operation` declares (and one of that response's examples). */
export function checkedAnswer(
  operation: ContractOperation,
  answer: unknown,
  problem: (text: string) => Error,
): ChosenAnswer {
  if (!isObject(answer) || typeof answer.status !== 'number')
    throw problem('something other than { status, example }.');
  const { status, example } = answer;
  const response = operation.responses[String(status)];
  if (!response)
    throw problem(
      `status ${status}, which the contract does not declare for it (it declares ${Object.keys(operation.responses).join(', ')}).`,
    );
  if (example === undefined) return { status };
  const names = Object.keys(response.examples);
  if (typeof example !== 'string' || !names.includes(example))
    throw problem(
      `the example "${String(example)}", which its ${status} response lacks (it has ${names.join(', ') || 'no named examples'}).`,
    );
  return { status, example };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
