// MSW handlers that answer as `npm run mock` does, because they are the same app: the app core on
// the contract's example data, serving every operation of the contract, with the mock's scenarios,
// delays and `Prefer` choices, run in the page (or the Node process) that MSW intercepts requests in.
import { type HttpHandler, type HttpResponseResolver, http } from 'msw';
import { loadContract } from '../../contract/bundled.ts';
import { exampleItems } from '../../core/collections/example-items.ts';
import { createLogger } from '../../core/logger.ts';
import { createMockApp } from '../../mock/app/app.ts';
import { exampleAnswers } from '../../mock/app/declared-answers.ts';
import { parseDelay } from '../../mock/app/delay.ts';
import { SCENARIO_COOKIE } from '../../mock/app/request-choice.ts';
import { readScenarios, scenarioNamed } from '../../mock/app/scenarios.ts';
import { fetchWebhook, mockWebhooks } from '../../mock/app/webhooks.ts';
import { SCENARIOS_DATA, SCENARIOS_SOURCE } from './embedded-scenarios.ts';
import { patternAt } from './url-patterns.ts';

export interface MockHandlersOptions {
  /**
   * The API's root as your app calls it, e.g. `http://localhost:5173/v1`: the handlers answer
   * requests to it only. By default they answer the contract's paths (`/v1/...`) at any origin.
   */
  baseUrl?: string;
  /** The scenario of `mock/scenarios.yaml` in force (`empty`, `server-error`...); `default` when not given. */
  scenario?: string;
  /** Added to every answer: milliseconds (`300`) or a uniform spread (`'100-800'`). */
  delay?: number | string;
  /**
   * Keep the items created, so they are listed and fetched for as long as the handlers live, and
   * the webhook endpoints registered, which are sent each create's event.
   */
  stateful?: boolean;
}

/** The names of the scenarios the handlers know, as `mock/scenarios.yaml` defines them. */
export const scenarioNames: readonly string[] = Object.keys(SCENARIOS_DATA as object);

/**
 * MSW handlers for every path of the contract and the rest of its base path, plus the mock's `/__mock/*` endpoints
 * (`PUT /__mock/scenario` switches the scenario, `POST /__mock/reset` forgets created items).
 * Each call makes a mock of its own, with its own pets and scenario.
 */
export function createMockHandlers(options: MockHandlersOptions = {}): HttpHandler[] {
  const contract = loadContract();
  const scenarios = readScenarios(contract, SCENARIOS_DATA, SCENARIOS_SOURCE);
  const scenario = scenarioNamed(scenarios, options.scenario ?? 'default').name;
  const delay = options.delay === undefined ? undefined : parseDelay(String(options.delay));
  if (options.delay !== undefined && !delay)
    throw new RangeError(
      `delay ${JSON.stringify(options.delay)} is neither milliseconds (300) nor a range ('100-800').`,
    );
  const logger = createLogger('error', (line) => console.error(line.trimEnd()));
  const stateful = options.stateful ?? false;
  const mock = createMockApp({
    contract,
    answers: exampleAnswers(),
    seeds: exampleItems(contract),
    keepsCreated: stateful,
    settings: { scenarios, scenario, ...(delay && { delay }) },
    // The handlers answer inside the page: no other origin calls them.
    corsOrigins: [],
    logger,
    // Stateful handlers keep webhook endpoints and send each create's event, as the stateful mock does.
    ...(stateful && { webhooks: mockWebhooks(contract, fetchWebhook, logger) }),
  });
  const origin = originOf(options.baseUrl, contract.basePath);

  const answer: HttpResponseResolver = ({ request, cookies }) =>
    mock.fetch(withScenarioCookie(request, cookies[SCENARIO_COOKIE]));
  return [
    // Every method of each contract path: its operations, and a 405 with Allow for the others.
    ...contract.paths.map((path) => http.all(patternAt(origin, path.servedPath), answer)),
    // The rest of the API's paths, so an unknown path is a 404 as served.
    http.all(patternAt(origin, `${contract.basePath}/*`), answer),
    http.all(patternAt(origin, '/__mock/*'), answer),
  ];
}

function originOf(baseUrl: string | undefined, basePath: string): string | undefined {
  if (baseUrl === undefined) return undefined;
  const url = new URL(baseUrl);
  if (url.pathname.replace(/\/$/, '') !== basePath)
    throw new RangeError(`baseUrl ${baseUrl} must be an origin followed by the contract's base path ${basePath}.`);
  return url.origin;
}

/**
 * A page's `mock-scenario` cookie, as the request's Cookie header: a browser keeps cookies out of
 * the headers MSW sees, and the mock reads the scenario from the header.
 */
function withScenarioCookie(request: Request, scenario: string | undefined): Request {
  if (scenario === undefined || request.headers.get('cookie')?.includes(`${SCENARIO_COOKIE}=`)) return request;
  const headers = new Headers(request.headers);
  headers.append('cookie', `${SCENARIO_COOKIE}=${encodeURIComponent(scenario)}`);
  return new Request(request, { headers });
}
