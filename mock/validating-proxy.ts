// `prism proxy --errors` in front of a real server: every answer to a contract operation is
// validated against the contract, and one that violates it reaches the caller as a 500
// problem+json listing the violations (also in the `sl-violations` header; see proxyViolations).
//
// Prism would change what reaches the server: it answers requests it cannot route (404, 405),
// bodies it cannot parse and GETs with a body itself, and re-serialises the JSON it forwards.
// So Prism sees each request without its body and forwards it to a relay of ours, which
// sends the original request, byte for byte, to the server and hands the answer back to Prism
// to validate. Requests to no contract operation go straight to the server: the contract
// declares no response for them to be validated against.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Contract, type OpenApiDocument } from '../contract/index.ts';
import { type Answer, type Exchange, Forwarder, type Front, startFront } from './http-front.ts';
import { MOCK_HOST, REPO_ROOT, type RunningMock } from './mock-server.ts';
import { prismDocument, writeDocument } from './prism-document.ts';
import { type PrismProcess, startPrism } from './prism-process.ts';

export interface ValidatingProxyOptions {
  /** Origin of the real server, e.g. `http://127.0.0.1:3000`. */
  upstream: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The repository whose `generated/openapi.json` is the contract. */
  root?: string;
  /** Hide Prism's own output (default true). */
  quiet?: boolean;
}

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

const EXCHANGE_HEADER = 'x-animal-store-exchange';
const VIOLATIONS_HEADER = 'sl-violations';

interface PendingExchange {
  request: Exchange;
  upstream?: Answer;
}

export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<RunningMock> {
  const { upstream, port = 0, root = REPO_ROOT, quiet = true } = options;
  const upstreamOrigin = new URL(upstream).origin;
  const contract = new Contract(
    JSON.parse(await readFile(path.join(root, 'generated', 'openapi.json'), 'utf8')) as OpenApiDocument,
  );
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'animal-store-proxy-'));
  const forwarder = new Forwarder();
  const pending = new Map<string, PendingExchange>();
  const started: { relay?: Front; prism?: PrismProcess; front?: Front } = {};

  const close = async () => {
    await started.front?.close();
    await started.prism?.stop();
    await started.relay?.close();
    forwarder.close();
    await rm(workDir, { recursive: true, force: true });
  };

  try {
    started.relay = await startFront({
      host: MOCK_HOST,
      port: 0,
      async handle(forwardedByPrism) {
        const exchange = pending.get(String(forwardedByPrism.headers[EXCHANGE_HEADER]));
        if (!exchange) throw new Error('Prism forwarded a request the proxy did not send it.');
        exchange.upstream = await forwarder.send(upstreamOrigin, exchange.request);
        return exchange.upstream;
      },
      fail: (error) => relayFailure(error, upstreamOrigin),
    });
    const file = await writeDocument(workDir, 'contract.json', prismDocument(contract));
    started.prism = await startPrism(
      ['proxy', file, started.relay.origin, '--errors', '--validate-request=false', '--cors=false'],
      { quiet },
    );
    const prismOrigin = started.prism.origin;
    started.front = await startFront({
      host: MOCK_HOST,
      port,
      async handle(request) {
        if (!contract.match(new URL(request.url, 'http://proxy').pathname)?.path.operationFor(request.method)) {
          return forwarder.send(upstreamOrigin, request);
        }
        const id = randomUUID();
        const exchange: PendingExchange = { request };
        pending.set(id, exchange);
        try {
          const answer = await forwarder.send(prismOrigin, withoutBody(request, id));
          return violationsAsError(answer, exchange);
        } finally {
          pending.delete(id);
        }
      },
      fail: (error) => relayFailure(error, upstreamOrigin),
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { url: started.front.origin, close };
}

/**
 * The contract violations the validating proxy found in the answer `response` carries: empty
 * for an answer that conforms. Reads only the headers, so the body is left to the caller.
 */
export function proxyViolations(response: { headers: { get(name: string): string | null } }): string[] {
  const header = response.headers.get(VIOLATIONS_HEADER);
  if (!header) return [];
  const violations = parseViolations(header);
  if (!violations) return [header];
  return violations
    .filter((violation) => violation.location[0] === 'response')
    .map((violation) => `${violation.location.join('.')}: ${violation.message} (${violation.severity.toLowerCase()})`);
}

function withoutBody(request: Exchange, id: string): Exchange {
  const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = request.headers;
  return { ...request, headers: { ...headers, [EXCHANGE_HEADER]: id }, body: Buffer.alloc(0) };
}

/**
 * Prism answers a violation of severity error with its own 500, but lets a warning (a status
 * the operation does not declare) pass with only the `sl-violations` header; both become the
 * same 500 here, naming the server's answer, so that no violation goes unnoticed.
 */
function violationsAsError(answer: Answer, exchange: PendingExchange): Answer {
  const header = answer.headers[VIOLATIONS_HEADER];
  if (typeof header !== 'string') return answer;
  const violations = parseViolations(header);
  const inResponse = violations?.filter((violation) => violation.location[0] === 'response') ?? [];
  if (violations && inResponse.length === 0) return answer;
  const { method, url } = exchange.request;
  const upstream = exchange.upstream;
  const problem = {
    type: 'https://stoplight.io/prism/errors#VIOLATIONS',
    title: 'Response not valid',
    status: 500,
    detail: `The server's ${upstream?.status ?? 'missing'} answer to ${method} ${url} violates the contract.`,
    validation: violations ? inResponse : header,
    upstream: upstream && { status: upstream.status, headers: upstream.headers, body: upstream.body.toString('utf8') },
  };
  return {
    status: 500,
    headers: { 'content-type': 'application/problem+json', [VIOLATIONS_HEADER]: header },
    body: Buffer.from(JSON.stringify(problem)),
  };
}

function parseViolations(header: string): Violation[] | undefined {
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? (parsed as Violation[]) : undefined;
  } catch {
    // Prism cuts the header at about 8 KB ("Too many violations! ...").
    return undefined;
  }
}

function relayFailure(error: unknown, upstream: string): Answer {
  const problem = {
    type: 'about:blank',
    title: 'Bad gateway',
    status: 502,
    detail: `The validating proxy could not reach ${upstream}: ${error instanceof Error ? error.message : String(error)}`,
  };
  return {
    status: 502,
    headers: { 'content-type': 'application/problem+json' },
    body: Buffer.from(JSON.stringify(problem)),
  };
}
