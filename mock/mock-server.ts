// The static or dynamic mock: Prism serving the bundled contract behind a front that keeps the
// port stable, serves the service's `/v1` paths, and answers errors as the contract does.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Contract, type OpenApiDocument } from '../contract/index.ts';
import { MAX_BODY_BYTES } from '../server/middleware/body-size-limit.ts';
import { contractAnswer, mockFailure, refusedBeforePrism, unknownPathAnswer } from './error-answers.ts';
import { type Answer, type Exchange, Forwarder, startFront } from './http-front.ts';
import { GENERATION_PROBE_PATH, prismDocument, withGenerationProbe, writeDocument } from './prism-document.ts';
import { type PrismProcess, startPrism } from './prism-process.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MOCK_HOST = '127.0.0.1';
const DOCUMENT_NAME = 'contract.json';
/** Prism reloads a changed document in its own process (half a second of it waiting for the write to settle). */
const RELOAD_TIMEOUT_MS = 15_000;
/** While Prism reloads, its port is closed for a moment; requests wait for it rather than fail. */
const RESTART_GRACE_MS = 5_000;
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

export interface MockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Answers generated from the schemas instead of the contract's examples. */
  dynamic?: boolean;
  /** Makes dynamic answers reproducible: the same seed gives the same answers, run after run. */
  seed?: string | number;
  /** Regenerate and serve the contract again after every edit under `openapi/`. */
  watch?: boolean;
  /** Hide Prism's own output (default true); the mock's messages go to `log` either way. */
  quiet?: boolean;
  /** The repository whose `openapi/` and `generated/` are used; tests pass a copy. */
  root?: string;
  /** Where the mock reports reloads and the findings of an invalid edit. */
  log?: (line: string) => void;
}

export interface RunningMock {
  /** The origin, e.g. `http://127.0.0.1:4010`; the API is at `url + '/v1'`. */
  url: string;
  close(): Promise<void>;
}

interface Served {
  contract: Contract;
  contractJson: string;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { port = 0, dynamic = false, seed, watch = false, quiet = true, root = REPO_ROOT } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'animal-store-mock-'));
  const documentFile = path.join(workDir, DOCUMENT_NAME);
  const prismArgs = [
    'mock',
    documentFile,
    ...(dynamic ? ['--dynamic'] : []),
    ...(seed === undefined ? [] : ['--seed', String(seed)]),
  ];
  const forwarder = new Forwarder();
  let generation = 0;
  let served: Served | undefined;
  let prism: PrismProcess | undefined;
  let closing = false;
  // Both are set by the initial start, before anything below reads them.
  const servedNow = (): Served => {
    if (served === undefined) throw new Error('The mock serves no contract yet.');
    return served;
  };
  const prismNow = (): PrismProcess => {
    if (prism === undefined) throw new Error('Prism has not been started yet.');
    return prism;
  };

  const write = (contract: Contract): Promise<string> => {
    generation += 1;
    return writeDocument(workDir, DOCUMENT_NAME, withGenerationProbe(prismDocument(contract, 'mock'), generation));
  };

  /** Starts Prism on the document file; should it ever die, a new one takes its place. */
  const launch = async (): Promise<void> => {
    const started = await startPrism(prismArgs, { quiet });
    prism = started;
    void started.exited.then(async () => {
      if (closing || prism !== started) return;
      log(`${clock()} Prism stopped unexpectedly; starting it again on the last good contract.\n${started.output()}`);
      try {
        await write(servedNow().contract);
        await launch();
      } catch (error) {
        log(`${clock()} Prism could not be started again: ${String(error)}`);
      }
    });
  };

  /**
   * Hands Prism the new contract and waits until it serves it: Prism watches its document and
   * reloads it in its own process, far sooner than a new Prism would start.
   */
  const serve = async (contractJson: string): Promise<void> => {
    const contract = new Contract(JSON.parse(contractJson) as OpenApiDocument);
    await write(contract);
    const expected = generation;
    if (!(await servesGeneration(expected))) {
      await write(servedNow().contract);
      throw new Error(
        `Prism did not take the new contract within ${RELOAD_TIMEOUT_MS / 1000} s.\n${prismNow().output()}`,
      );
    }
    served = { contract, contractJson };
  };

  const servesGeneration = async (expected: number): Promise<boolean> => {
    const deadline = Date.now() + RELOAD_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const answer = await sendToPrism({
        method: 'GET',
        url: GENERATION_PROBE_PATH,
        headers: {},
        body: Buffer.alloc(0),
      }).catch(() => undefined);
      if (answer && (JSON.parse(answer.body.toString('utf8')) as { generation?: number }).generation === expected)
        return true;
      await sleep(50);
    }
    return false;
  };

  const sendToPrism = async (exchange: Exchange): Promise<Answer> => {
    const deadline = Date.now() + RESTART_GRACE_MS;
    for (;;) {
      try {
        return await forwarder.send(prismNow().origin, exchange);
      } catch (error) {
        if (!isConnectionError(error) || Date.now() > deadline) throw error;
        await sleep(25);
      }
    }
  };

  const handle = async (exchange: Exchange): Promise<Answer> => {
    const { contract } = servedNow();
    if (new URL(exchange.url, 'http://mock').pathname === GENERATION_PROBE_PATH)
      return unknownPathAnswer(exchange, contract);
    return (
      refusedBeforePrism(exchange, contract) ??
      contractAnswer(await sendToPrism(toPrism(exchange, contract)), exchange, contract)
    );
  };

  let reloads: ContractReloads | undefined;
  const close = async () => {
    closing = true;
    await reloads?.close();
    await frontClose?.();
    forwarder.close();
    await prism?.stop();
    await rm(workDir, { recursive: true, force: true });
  };
  let frontClose: (() => Promise<void>) | undefined;
  try {
    const initial = async (contractJson: string) => {
      const contract = new Contract(JSON.parse(contractJson) as OpenApiDocument);
      await write(contract);
      await launch();
      served = { contract, contractJson };
    };
    if (watch) {
      reloads = await watchAndReload(root, log, initial, serve, () => served?.contractJson);
    } else {
      await initial(await readFile(path.join(root, 'generated', 'openapi.json'), 'utf8'));
    }
    const front = await startFront({
      host: MOCK_HOST,
      port,
      maxBodyBytes: MAX_BODY_BYTES,
      handle,
      fail: (error, exchange) => mockFailure(error, exchange, servedNow().contract),
    });
    frontClose = front.close;
    return { url: front.origin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * What Prism is asked: HEAD as GET (Prism knows only the declared methods), a body only where the
 * operation takes one (the service ignores any other, where Prism would refuse a body it cannot
 * parse before routing) and without a UTF-8 byte order mark (the service's decoder drops it,
 * Prism's JSON parser refuses it), JSON only (as the service), and the bearer scheme spelled as
 * Prism's case-sensitive check wants it (the service takes the scheme name in any case, RFC 9110).
 */
function toPrism(exchange: Exchange, contract: Contract): Exchange {
  const authorization = exchange.headers.authorization;
  const operation = contract.match(new URL(exchange.url, 'http://mock').pathname)?.path.operationFor(exchange.method);
  return {
    ...exchange,
    method: exchange.method === 'HEAD' ? 'GET' : exchange.method,
    body: operation?.bodySchema ? withoutByteOrderMark(exchange.body) : Buffer.alloc(0),
    headers: {
      ...exchange.headers,
      accept: 'application/json',
      ...(typeof authorization === 'string' && { authorization: authorization.replace(/^bearer(?=\s)/i, 'Bearer') }),
    },
  };
}

function withoutByteOrderMark(body: Buffer): Buffer {
  return body.subarray(0, BYTE_ORDER_MARK.length).equals(BYTE_ORDER_MARK)
    ? body.subarray(BYTE_ORDER_MARK.length)
    : body;
}

function isConnectionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    (code !== undefined && CONNECTION_ERRORS.has(code)) ||
    (error instanceof Error && error.message === 'socket hang up')
  );
}

interface ContractReloads {
  close(): Promise<void>;
}

/**
 * Runs the contract pipeline's watch loop in this process. A good regeneration whose bundle
 * differs from the one served is served next; an invalid edit is reported and changes nothing.
 */
async function watchAndReload(
  root: string,
  log: (line: string) => void,
  start: (contractJson: string) => Promise<void>,
  serve: (contractJson: string) => Promise<void>,
  served: () => string | undefined,
): Promise<ContractReloads> {
  // Loaded only here: the pipeline's tools (Redocly, openapi-typescript) take a second to load.
  const { contractLocations, formatFinding, watchContract } = await import('../scripts/pipeline.ts');
  const locations = contractLocations(root);
  let atStart: string | undefined;
  let wanted: { json: string; since: number; cause: string } | undefined;
  let draining: Promise<void> | undefined;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));

  const drain = async (): Promise<void> => {
    // An edit saved while the mock is still starting is served once it has started.
    await started;
    while (wanted) {
      const { json, since, cause } = wanted;
      wanted = undefined;
      if (json === served()) continue;
      try {
        await serve(json);
        log(`${clock()} serving the new contract, ${Math.round(performance.now() - since)} ms after ${cause}.`);
      } catch (error) {
        log(
          `${clock()} ${error instanceof Error ? error.message : String(error)} Still serving the previous contract.`,
        );
      }
    }
  };

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
      wanted = { json, since: performance.now() - result.ms, cause };
      draining ??= drain().finally(() => (draining = undefined));
    },
  });
  try {
    // An invalid contract at start was reported above; the last good bundle is served meanwhile.
    await start(atStart ?? (await readFile(path.join(locations.outDir, 'openapi.json'), 'utf8')));
    markStarted();
  } catch (error) {
    wanted = undefined;
    markStarted();
    await watcher.close();
    throw error;
  }
  return {
    async close() {
      await watcher.close();
      await draining;
    },
  };
}

function clock(): string {
  return `[${new Date().toTimeString().slice(0, 8)}]`;
}
