// `npm run mock`: the static or dynamic mock on one port, serving the service's `/v1` paths from
// the bundled contract, and serving it again after every edit under `openapi/` when watching.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Contract } from '../../contract/contract.ts';
import type { OpenApiDocument } from '../../contract/document.ts';
import { exampleItems } from '../../core/collections/example-items.ts';
import { createLogger } from '../../core/logger.ts';
import type { CorsOrigins } from '../../core/middleware/cors.ts';
import { type Listening, listen } from '../../node/listen.ts';
import { createMockApp, type MockApp } from '../app/app.ts';
import type { Delay } from '../app/delay.ts';
import { onlyAllowedHosts } from './allowed-hosts.ts';
import { localOrigins } from './config.ts';
import { lazyPrismAnswers, prismAnswers } from './prism-answers.ts';
import { loadScenarios, SCENARIOS_FILE } from './scenarios-file.ts';
import { socketFaults } from './socket-faults.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MOCK_HOST = '127.0.0.1';
/** Generated items per collection of `--dynamic` when `pets` is not given: enough for a few pages. */
export const DEFAULT_DYNAMIC_PETS = 50;

export interface MockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Pets generated from the schemas instead of the contract's examples. */
  dynamic?: boolean;
  /** Makes dynamic data reproducible: the same seed gives the same items, run after run. */
  seed?: string | number;
  /** How many items `dynamic` generates in each collection. */
  pets?: number;
  /** The scenario in force until `PUT /__mock/scenario` changes it; `default` when not given. */
  scenario?: string;
  /** Added to every answer that sets no delay of its own. */
  delay?: Delay;
  /** Origins a browser may call the mock from: any on localhost or 127.0.0.1 by default. */
  corsOrigins?: CorsOrigins;
  /** Host names answered besides loopback ones (`MOCK_ALLOWED_HOSTS`). */
  allowedHosts?: string[];
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

export interface RunningStaticMock extends RunningMock {
  /**
   * With `watch`: settles once edits under `openapi/` are watched and the contract there (which
   * may differ from `generated/`) is served. The mock answers before that, from `generated/`.
   */
  watching: Promise<void>;
}

/** Reads the contract, checks the scenarios against it, and serves the mock; rejects on a bad scenario file or a busy port. */
export async function startMock(options: MockOptions = {}): Promise<RunningStaticMock> {
  const { port = 0, root = REPO_ROOT, watch = false } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seed = options.seed === undefined ? randomBytes(6).toString('hex') : String(options.seed);
  const build = async (contract: Contract, current?: MockApp) =>
    buildStaticMock(contract, { ...options, seed }, current);

  let served: { app: MockApp; contract: Contract; contractJson: string } | undefined;
  const fetch: MockApp['fetch'] = (request, env) => {
    if (!served) throw new Error('The mock serves no contract yet.');
    return served.app.fetch(request, env);
  };
  const serve = async (contractJson: string) => {
    const contract = new Contract(JSON.parse(contractJson) as OpenApiDocument);
    served = { app: await build(contract, served?.app), contract, contractJson };
  };

  let watching: Promise<void> = Promise.resolve();
  let reloads: { close(): Promise<void> } | undefined;
  let closed = false;
  let listening: Listening | undefined;
  // A watch loop still loading its tools is not waited for: it closes itself once started.
  const close = async () => {
    closed = true;
    await listening?.close();
    await reloads?.close();
  };
  try {
    // The committed bundle is served at once; the watch loop's tools (Redocly, openapi-typescript)
    // load afterwards, so the first answer does not wait for them.
    await serve(await readFile(path.join(root, 'generated', 'openapi.json'), 'utf8'));
    // A reload's contract may raise a body limit; the app refuses a body over its operation's own
    // limit whatever this is, so the one the mock started with only decides on `100 Continue`.
    const maxBodyBytes = served?.contract.largestBodyBytes ?? 0;
    listening = await listen(onlyAllowedHosts(fetch, options.allowedHosts), MOCK_HOST, port, { maxBodyBytes });
    if (watch) {
      watching = watchAndReload(root, log, serve, () => served?.contractJson).then(
        async (started) => {
          if (closed) await started.close();
          else reloads = started;
        },
        (error: unknown) => {
          log(
            `${clock()} edits under openapi/ are not watched: ${error instanceof Error ? error.message : String(error)}`,
          );
        },
      );
    }
    return { url: listening.origin, watching, close };
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
  const prism = options.dynamic ? await prismAnswers(contract) : undefined;
  const seeds = prism
    ? await prism.generateData(options.pets ?? DEFAULT_DYNAMIC_PETS, options.seed)
    : exampleItems(contract);
  return createMockApp({
    contract,
    answers: prism ?? lazyPrismAnswers(contract),
    seeds,
    connectionOf: socketFaults,
    startScenario,
    settings: { scenarios, scenario, ...(options.delay && { delay: options.delay }) },
    logger: createLogger('warn'),
    corsOrigins: options.corsOrigins ?? localOrigins,
  });
}

/** What the pipeline's watch loop tells the program that started it after each run (`npm run generate -- --watch`). */
type Regeneration =
  | { ok: true; changed: string[]; ms: number }
  | { ok: false; changed: string[]; ms: number; failedStep: string; findings: string[] };

/**
 * Runs the contract pipeline's watch loop (`npm run generate -- --watch`) as a child of this
 * process, which it ends with. After each good run whose bundle differs from the one served, the
 * bundle it wrote to `generated/` is served next (at start too: `openapi/` may hold edits that
 * `generated/` lacks); an invalid edit is reported and changes nothing. Resolves after the first run.
 */
async function watchAndReload(
  root: string,
  log: (line: string) => void,
  serve: (contractJson: string) => Promise<void>,
  served: () => string | undefined,
): Promise<{ close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(root, 'scripts', 'preload-tools.mjs')).href,
      '--import',
      'tsx',
      path.join(root, 'scripts', 'generate.ts'),
      '--watch',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const exited = once(child, 'exit');
  let serving = Promise.resolve();
  const onRegenerated = (result: Regeneration) => {
    const cause = result.changed.length > 0 ? `the edit to ${result.changed.join(', ')}` : 'start';
    if (!result.ok) {
      const problems = result.findings.length === 1 ? '1 problem' : `${result.findings.length} problems`;
      log(
        `${clock()} ${result.failedStep} failed with ${problems} after ${cause}; still serving the last good contract.`,
      );
      for (const finding of result.findings) log(`  ${finding}`);
      return;
    }
    const noticed = performance.now() - result.ms;
    serving = serving.then(async () => {
      try {
        const json = await readFile(path.join(root, 'generated', 'openapi.json'), 'utf8');
        if (json === served()) return;
        await serve(json);
        log(`${clock()} serving the new contract, ${Math.round(performance.now() - noticed)} ms after ${cause}.`);
      } catch (error) {
        log(
          `${clock()} ${error instanceof Error ? error.message : String(error)} Still serving the previous contract.`,
        );
      }
    });
  };
  child.on('message', (message) => onRegenerated(message as Regeneration));
  await Promise.race([
    once(child, 'message'),
    exited.then(([code]) => {
      throw new Error(`the pipeline's watch loop exited with ${code} before its first run. ${stderr.trim()}`);
    }),
  ]);
  await serving;
  return {
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await exited;
      }
      await serving;
    },
  };
}

function clock(): string {
  return `[${new Date().toTimeString().slice(0, 8)}]`;
}
