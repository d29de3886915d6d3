// One tool call as one request of the project's typed client, so the `Authorization`, a fresh
// `Idempotency-Key` on each create and the body's declared media type are the client's; the
// arguments checked first by the contract's request validator, in the server's words. The answer
// becomes the tool's result: a success's JSON body as text and, where it is an object, as structured
// content; an Error answer as a tool error carrying the Error body. Nothing is retried here: an
// answer the contract gives `Retry-After` (a 429, a 503) says when to, and the agent decides.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type AnimalStoreClient, createAnimalStoreClient, findLink } from '../client/index.ts';
import type { Contract, ContractOperation } from '../contract/contract.ts';
import { requestValidator } from '../contract/request-validator.ts';
import { errors } from '../core/errors.ts';
import { BODY_ARGUMENT, type OperationTool } from './tools.ts';

export interface Api {
  /** The API's root, with its version path: `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  apiKey: string;
}

type ToolArguments = Record<string, unknown>;
export type CallTool = (tool: OperationTool, args: ToolArguments) => Promise<CallToolResult>;

/** openapi-fetch's `request` for an operation known only at run time, its body read as text. */
type SendAny = (
  method: string,
  path: string,
  init: { params: { path: ToolArguments; query: ToolArguments }; body?: unknown; parseAs: 'text' },
) => Promise<{ data?: string; error?: unknown; response: Response }>;

export function toolCaller(contract: Contract, api: Api): CallTool {
  const validator = requestValidator(contract);
  const clients = new Map<string, AnimalStoreClient>();
  const clientFor = (operation: ContractOperation) => {
    const baseUrl = baseUrlOf(contract, api.baseUrl, operation);
    const client =
      clients.get(baseUrl) ?? createAnimalStoreClient({ baseUrl, apiKey: api.apiKey, retry: { attempts: 1 } });
    clients.set(baseUrl, client);
    return { client, baseUrl };
  };

  return async (tool, args) => {
    const { operation, parameters } = tool;
    const takes = (name: string) =>
      parameters.has(name) || (name === BODY_ARGUMENT && operation.bodySchema !== undefined);
    const unknown = Object.keys(args).filter((name) => !takes(name));
    if (unknown.length > 0) {
      const known = [...parameters.keys(), ...(operation.bodySchema ? [BODY_ARGUMENT] : [])];
      return refusal(
        `${operation.operationId} takes no argument ${unknown.map((name) => `\`${name}\``).join(', ')}; ` +
          (known.length > 0 ? `its arguments are ${known.map((name) => `\`${name}\``).join(', ')}.` : 'it takes none.'),
      );
    }
    const values = { path: {} as ToolArguments, query: {} as ToolArguments };
    for (const [name, value] of Object.entries(args)) {
      const parameter = parameters.get(name);
      if (parameter) values[parameter.in as 'path' | 'query'][name] = value;
    }
    const checked = validator.validate(operation.operationId, {
      path: asText(values.path) as Record<string, string>,
      query: asText(values.query),
      body: args[BODY_ARGUMENT],
      ...(operation.bodyMediaType && { mediaType: operation.bodyMediaType }),
    });
    if (!checked.valid) return refusal(JSON.stringify(errors.invalidRequest(checked.problems).body));

    const { client, baseUrl } = clientFor(operation);
    const send = client.request as unknown as SendAny;
    let answer: Awaited<ReturnType<SendAny>>;
    try {
      answer = await send(operation.method.toLowerCase(), operation.path, {
        params: values,
        ...(BODY_ARGUMENT in args && { body: args[BODY_ARGUMENT] }),
        parseAs: 'text',
      });
    } catch (error) {
      return refusal(`${baseUrl} did not answer ${operation.operationId}: ${String((error as Error).cause ?? error)}`);
    }
    return answer.response.ok
      ? success(tool, answer.response, answer.data)
      : failure(operation, answer.response, answer.error);
  };
}

/**
 * Where an operation is served under the base URL given: it stands for the contract's base path;
 * a path with servers of its own (the health probes beside `/v1`) keeps their path, on its origin.
 */
function baseUrlOf(contract: Contract, baseUrl: string, operation: ContractOperation): string {
  const basePath = operation.servedPath.slice(0, operation.servedPath.length - operation.path.length);
  return basePath === contract.basePath ? baseUrl : new URL(baseUrl).origin + basePath;
}

/** Parameter values as a request carries them: text, as the validator reads them from a URL. */
function asText(values: ToolArguments): Record<string, string | string[]> {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.map(text) : text(value)]),
  );
}

function refusal(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function success({ operation, tool, parameters }: OperationTool, response: Response, text = ''): CallToolResult {
  const described = operation.responses[String(response.status)]?.definition.description;
  const content: CallToolResult['content'] = [
    { type: 'text', text: text || `${response.status}: ${typeof described === 'string' ? described : 'done'}` },
  ];
  // The next page's link, as arguments of this tool: an agent pages by calling it again.
  const next = findLink(response.headers.get('Link'), 'next');
  if (next !== undefined) {
    const nextArguments = Object.fromEntries(
      [...new URL(next, response.url).searchParams].flatMap(([name, value]) => {
        const type = parameters.get(name)?.resolvedSchema.type;
        if (type === undefined) return [];
        return [[name, type === 'integer' || type === 'number' ? Number(value) : value]];
      }),
    );
    content.push({
      type: 'text',
      text: `More results: call ${tool.name} again with ${JSON.stringify(nextArguments)}.`,
    });
  }
  const body: unknown = /json/i.test(response.headers.get('Content-Type') ?? '') ? JSON.parse(text) : undefined;
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  return { content, ...(isObject && { structuredContent: body as Record<string, unknown> }) };
}

/** The header by which an answer says when to try again, as RFC 9110 and the contract name it. */
const RETRY_AFTER = 'Retry-After';

function failure(operation: ContractOperation, response: Response, error: unknown): CallToolResult {
  const result = refusal(typeof error === 'string' ? error : JSON.stringify(error));
  // Said where the contract declares the header on this answer (a 429, a 503), and the answer carries it.
  const declared = operation.responses[String(response.status)]?.headers[RETRY_AFTER] !== undefined;
  const retryAfter = response.headers.get(RETRY_AFTER);
  if (declared && retryAfter !== null) {
    result.content.push({
      type: 'text',
      text: `Retry after ${retryAfter} seconds (the answer's Retry-After); this tool does not retry by itself.`,
    });
  }
  return result;
}
