// A validating proxy in front of a real server: each request goes to the server exactly as sent
// (method, path, query, headers and body bytes), and each answer to a contract operation is judged
// by the contract's response validator. An answer that conforms passes through unchanged; one that
// does not reaches the caller as a 500 problem+json listing the violations (also, as a JSON array,
// in the X-Contract-Violations header; see proxyViolations). Requests to no contract operation go
// straight through: the contract declares no response for them to be judged against.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Contract } from '../../contract/contract.ts';
import type { OpenApiDocument } from '../../contract/document.ts';
import { type ObservedResponse, responseValidator } from '../../contract/response-validator.ts';
import { type Answer, type Exchange, Forwarder, startFront } from './http-front.ts';
import { MOCK_HOST, REPO_ROOT, type RunningMock } from './server.ts';

export interface ValidatingProxyOptions {
  /** Origin of the real server, e.g. `http://127.0.0.1:3000`. */
  upstream: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The repository whose `generated/openapi.json` is the contract. */
  root?: string;
}

const VIOLATIONS_HEADER = 'x-contract-violations';
/** Kept under the header sizes proxies and clients accept; the body always lists every violation. */
const VIOLATIONS_HEADER_BYTES = 8_000;

export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<RunningMock> {
  const { upstream, port = 0, root = REPO_ROOT } = options;
  const upstreamOrigin = new URL(upstream).origin;
  const contract = new Contract(
    JSON.parse(await readFile(path.join(root, 'generated', 'openapi.json'), 'utf8')) as OpenApiDocument,
  );
  const validator = responseValidator(contract);
  const forwarder = new Forwarder();
  try {
    const front = await startFront({
      host: MOCK_HOST,
      port,
      async handle(request) {
        const answer = await forwarder.send(upstreamOrigin, request);
        const operation = contract
          .match(new URL(request.url, 'http://proxy').pathname)
          ?.path.operationFor(request.method);
        if (!operation) return answer;
        const violations = validator.problems(operation.operationId, observed(answer, request));
        return violations.length === 0 ? answer : violationsAsError(violations, answer, request);
      },
      fail: (error) => relayFailure(error, upstreamOrigin),
    });
    return {
      url: front.origin,
      close: async () => {
        await front.close();
        forwarder.close();
      },
    };
  } catch (error) {
    forwarder.close();
    throw error;
  }
}

/**
 * The contract violations the validating proxy found in the answer `response` carries: empty
 * for an answer that conforms. Reads only the headers, so the body is left to the caller.
 */
export function proxyViolations(response: { headers: { get(name: string): string | null } }): string[] {
  const header = response.headers.get(VIOLATIONS_HEADER);
  return header ? (JSON.parse(header) as string[]) : [];
}

/** The answer as the validator reads it. */
function observed(answer: Answer, request: Exchange): ObservedResponse {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  const text = request.method === 'HEAD' ? undefined : answer.body.toString('utf8');
  return { status: answer.status, headers, text };
}

function violationsAsError(violations: string[], upstream: Answer, request: Exchange): Answer {
  const problem = {
    type: 'about:blank',
    title: 'Response not valid',
    status: 500,
    detail: `The server's ${upstream.status} answer to ${request.method} ${request.url} violates the contract.`,
    violations,
    upstream: { status: upstream.status, headers: upstream.headers, body: upstream.body.toString('utf8') },
  };
  const listed = [...violations];
  while (listed.length > 1 && JSON.stringify(listed).length > VIOLATIONS_HEADER_BYTES) listed.pop();
  if (listed.length < violations.length) listed.push(`… and ${violations.length - listed.length} more in the body`);
  return {
    status: 500,
    headers: { 'content-type': 'application/problem+json', [VIOLATIONS_HEADER]: JSON.stringify(listed) },
    body: Buffer.from(JSON.stringify(problem)),
  };
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
