// `npm run mock`: the static or dynamic mock on one port, serving the service's `/v1` paths from
// the bundled contract, and serving it again after every edit under `openapi/` when watching.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Contract, type OpenApiDocument, rateLimitRules } from '../contract/index.ts';
import { systemClock } from '../server/clock.ts';
import { type Listening, listen } from '../server/listen.ts';
import { createLogger } from '../server/logger.ts';
import { AnyKeyStore } from './any-key-store.ts';
import { CollectionStore } from './collection-store.ts';
import { countingLimiter } from './counting-limiter.ts';
import type { Delay } from './delay.ts';
import { examplePets } from './example-pets.ts';
import { createMockApp, type MockApp } from './mock-app.ts';
import { localOrigins, type MockOrigins } from './origins.ts';
import { prismAnswers } from './prism-answers.ts';
import { loadScenarios, SCENARIOS_FILE } from './scenarios.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MOCK_HOST = '127.0.0.1';
/** Generated pets of `--dynamic` when `pets` is not given: enough for a few pages. */
export const DEFAULT_DYNAMIC_PETS = 50;
/** The plan whose windows the mock's rate-limit headers count down; the mock refuses nothing. */
export const MOCK_PLAN = 'business';

export interface MockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Pets generated from the schemas instead of the contract's examples. */
  dynamic?: boolean;
  /** Makes dynamic pets reproducible: the same seed gives the same pets, run after run. */
  seed?: string | number;
  /** How many pets `dynamic` generates. */
  pets?: number;
  /** The scenario in force until `PUT /__mock/scenario` changes it; `default` when not given. */
  scenario?: string;
  /** Added to every answer that sets no delay of its own. */
  delay?: Delay;
  /** Origins a browser may call the mock from: any on localhost or 127.0.0.1 by default. */
  corsOrigins?: MockOrigins;
  /** Serve the contract again after every edit under `openapi/`. */
  watch?: boolean;
  /** The repository whose `openapi/` and `generated/` are used; tests pass a copy. */
  root?: string;
  /** The scenarios file; `mock/scenarios.yaml` by default. */
  scenariosFile?: string;
  /** Where the mock reports reloads and the findings of an invalid edit. */
  log?: (line: string) => void;
}

export interface RunningMock {
  /** The origin, e.g. `http://127.0.0.1:4010`; the API is at `url + '/v1'`. */
  url: string;
  close(): Promise<void>;
}

/** Reads the contract, checks the scenarios against it, and serves the mock; rejects on a bad scenario file or a busy port. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { port = 0, root = REPO_ROOT, watch = false } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seed = options.seed === undefined ? randomBytes(6).toString('hex') : String(options.seed);
  const build = async (contractJson: string, current?: MockApp) =>
    buildStaticMock(new Contract(JSON.parse(contractJson) as OpenApiDocument), { ...options, seed }, current);

  let served: { app: MockApp; contractJson: string } | undefined;
  const fetch: MockApp['fetch'] = (request, env) => {
    if (!served) throw new Error('The mock serves no contract yet.');
    return served.app.fetch(request, env);
  };
  const serve = async (contractJson: string) => {
    served = { app: await build(contractJson, served?.app), contractJson };
  };

  let reloads: { close(): Promise<void> } | undefined;
  let listening: Listening | undefined;
  const close = async () => {
    await reloads?.close();
    await listening?.close();
  };
  try {
    if (watch) reloads = await watchAndReload(root, log, serve, () => served?.contractJson);
    else await serve(await readFile(path.join(root, 'generated', 'openapi.json'), 'utf8'));
    listening = await listen(fetch, MOCK_HOST, port);
    return { url: listening.origin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function buildStaticMock(
  contract: Contract,
  options: MockOptions & { seed: string },
  current: MockApp | undefined,
): Promise<MockApp> {
  const scenarios = loadScenarios(contract, options.scenariosFile ?? SCENARIOS_FILE);
  const startScenario = options.scenario ?? 'default';
  // A reload keeps the scenario chosen at run time, while the new scenarios still have it.
  const inForce = current?.settings.scenario;
  const scenario = inForce !== undefined && scenarios.has(inForce) ? inForce : startScenario;
  const prism = await prismAnswers(contract);
  const pets = options.dynamic
    ? await prism.generatePets(options.pets ?? DEFAULT_DYNAMIC_PETS, options.seed)
    : examplePets(contract);
  const rules = rateLimitRules(contract.document);
  if (rules.plans[MOCK_PLAN] === undefined) throw new Error(`The contract has no plan ${MOCK_PLAN}.`);
  const limiter = countingLimiter(systemClock);
  return createMockApp({
    contract,
    prism,
    startScenario,
    settings: { scenarios, scenario, ...(options.delay && { delay: options.delay }) },
    pets: new CollectionStore(pets),
    keys: new AnyKeyStore(MOCK_PLAN),
    limiters: { keys: limiter, addresses: limiter },
    logger: createLogger('warn'),
    corsOrigins: options.corsOrigins ?? localOrigins,
    resetData: async () => limiter.reset(),
  });
}

/**
 * Runs the contract pipeline's watch loop in this process. A good regeneration whose bundle
 * differs from the one served is served next; an invalid edit is reported and changes nothing.
 */
async function watchAndReload(
  root: string,
  log: (line: string) => void,
  serve: (contractJson: string) => Promise<void>,
  served: () => string | undefined,
): Promise<{ close(): Promise<void> }> {
  // Loaded only here: the pipeline's tools (Redocly, openapi-typescript) take a second to load.
  const { contractLocations, formatFinding, watchContract } = await import('../scripts/pipeline.ts');
  const locations = contractLocations(root);
  let atStart: string | undefined;
  let markStarted!: () => void;
  // An edit saved while the mock is still starting is served once it has started.
  let serving = new Promise<void>((resolve) => (markStarted = resolve));
  const watcher = await watchContract({
    locations,
    onRegenerated(result) {
      const cause = result.changed.length > 0 ? `the edit to ${result.changed.join(', ')}` : 'start';
      if (!result.ok) {
        const problems = result.findings.length === 1 ? '1 problem' : `${result.findings.length} problems`;
        log(
          `${clock()} ${result.failedStep} failed with ${problems} after ${cause}; still serving the last good contract.`,
        );
        for (const finding of result.findings) log(`  ${formatFinding(locations, finding)}`);
        return;
      }
      const json = result.artifacts.find((artifact) => artifact.name === 'openapi.json')?.content;
      if (json === undefined) return;
      if (result.changed.length === 0) {
        atStart = json;
        return;
      }
      const since = performance.now() - result.ms;
      serving = serving.then(async () => {
        if (json === served()) return;
        try {
          await serve(json);
          log(`${clock()} serving the new contract, ${Math.round(performance.now() - since)} ms after ${cause}.`);
        } catch (error) {
          log(
            `${clock()} ${error instanceof Error ? error.message : String(error)} Still serving the previous contract.`,
          );
        }
      });
    },
  });
  try {
    // An invalid contract at start was reported above; the last good bundle is served meanwhile.
    await serve(atStart ?? (await readFile(path.join(locations.outDir, 'openapi.json'), 'utf8')));
    markStarted();
  } catch (error) {
    markStarted();
    await watcher.close();
    throw error;
  }
  return {
    async close() {
      await watcher.close();
      await serving;
    },
  };
}

function clock(): string {
  return `[${new Date().toTimeString().slice(0, 8)}]`;
}
