// What a request asks of the mock, beside what it asks of the API: a scenario, an answer, a delay
// or a fault. Read from the `Prefer` header, the reserved `__` query parameters and the
// `mock-scenario` cookie; the reserved parameters are taken off the URL before the API sees it.
//
// Precedence, highest first: `Prefer`, then the query, then the cookie, then the scenario set with
// `PUT /__mock/scenario`, then the one the mock started with. A request's own delay, fault or answer
// wins over its scenario's; the start's `--delay` applies where nothing else sets one.
import { parse as parseCookies } from 'hono/utils/cookie';
import { errors } from '../../core/errors.ts';
import { type Delay, parseDelay } from './delay.ts';
import { FAULTS, type Fault, type Scenario, type Scenarios } from './scenarios.ts';

export const SCENARIO_PARAMETER = '__scenario';
export const SCENARIO_COOKIE = 'mock-scenario';
const RESERVED_PARAMETERS = ['__scenario', '__delay', '__fault', '__code', '__example', '__dynamic'];

/** What the request asks the mock to answer, where it names the response itself. */
interface ExplicitAnswer {
  status?: number;
  example?: string;
  dynamic?: boolean;
}

export interface RequestChoice {
  scenario: Scenario;
  explicit: ExplicitAnswer;
  delay?: Delay;
  fault?: Fault;
}

/** The mock-wide settings a request's own choices fall back on. */
export interface MockSettings {
  scenarios: Scenarios;
  /** Set by `PUT /__mock/scenario`, else the start's `--scenario`. */
  scenario: string;
  /** The start's `--delay`. */
  delay?: Delay;
}

/** The request's choice, and its URL without the reserved parameters. Throws an ApiError (400) naming what the mock cannot follow. */
export function readRequestChoice(
  url: URL,
  headers: Headers,
  settings: MockSettings,
): { choice: RequestChoice; apiUrl: URL } {
  const prefer = preferences(headers.get('prefer'));
  const query = url.searchParams;
  // As the API refuses its own parameters given twice: which one counts is no guess to leave to a reader.
  const repeated = RESERVED_PARAMETERS.find((name) => query.getAll(name).length > 1);
  if (repeated !== undefined)
    throw errors.mockControl(
      `The query parameter \`${repeated}\` is given ${query.getAll(repeated).length} times; give it at most once.`,
    );
  const cookie = parseCookies(headers.get('cookie') ?? '', SCENARIO_COOKIE)[SCENARIO_COOKIE];
  const scenarioName = query.get(SCENARIO_PARAMETER) ?? cookie ?? settings.scenario;
  const scenario = settings.scenarios.get(scenarioName);
  if (!scenario) {
    const source = query.has(SCENARIO_PARAMETER)
      ? `query parameter \`${SCENARIO_PARAMETER}\``
      : `cookie \`${SCENARIO_COOKIE}\``;
    throw errors.mockControl(
      `The ${source} names the scenario "${scenarioName}", which the mock lacks; use one of ${[...settings.scenarios.keys()].join(', ')}.`,
    );
  }

  /** The request's own `Prefer: <name>=`, else its `?__<name>=`. */
  const asked = (name: string) => prefer.get(name) ?? query.get(`__${name}`) ?? undefined;
  const delayText = asked('delay');
  const faultText = asked('fault');
  const codeText = asked('code');
  const example = asked('example');
  const dynamicText = asked('dynamic');

  let delay = scenario.delay ?? settings.delay;
  if (delayText !== undefined) {
    delay = parseDelay(delayText);
    if (!delay)
      throw errors.mockControl(
        `The delay "${delayText}" is not one the mock takes: use milliseconds, such as 300, or a range, such as 100-800, up to two minutes.`,
      );
  }
  let fault = scenario.fault;
  if (faultText !== undefined) {
    if (!FAULTS.includes(faultText as Fault))
      throw errors.mockControl(`The fault "${faultText}" is not one the mock knows; use one of ${FAULTS.join(', ')}.`);
    fault = faultText as Fault;
  }
  const explicit: ExplicitAnswer = {};
  if (codeText !== undefined) {
    if (!/^[1-5]\d\d$/.test(codeText)) throw errors.mockControl(`The code "${codeText}" is not an HTTP status.`);
    explicit.status = Number(codeText);
  }
  if (example !== undefined) explicit.example = example;
  if (dynamicText !== undefined) {
    if (dynamicText !== 'true' && dynamicText !== 'false')
      throw errors.mockControl(`The dynamic preference "${dynamicText}" must be true or false.`);
    explicit.dynamic = dynamicText === 'true';
  }

  let apiUrl = url;
  if (RESERVED_PARAMETERS.some((name) => query.has(name))) {
    apiUrl = new URL(url);
    for (const name of RESERVED_PARAMETERS) apiUrl.searchParams.delete(name);
  }
  return { choice: { scenario, explicit, ...(delay && { delay }), ...(fault && { fault }) }, apiUrl };
}

/** `Prefer: code=404, example=ErrorNotFound, delay=300` as a map; other preferences are left alone. */
function preferences(header: string | null): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (header ?? '').split(/[,;]/)) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim().toLowerCase();
    const value = part
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!found.has(name)) found.set(name, value);
  }
  return found;
}
