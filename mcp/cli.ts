// `npm run --silent mcp [-- --base-url <url>] [--mock] [--read-only]`: the contract's operations as
// Model Context Protocol tools over stdio, for agents. Calls go to the server at --base-url with the
// key in ANIMAL_STORE_API_KEY, or with --mock to a stateful mock in this process. Standard output
// carries the protocol alone; everything else, a start that cannot work included, goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadContract } from '../contract/bundled.ts';
import { PreconditionError, UsageError } from '../core/errors.ts';
import { startStatefulMock } from '../mock/node/stateful-server.ts';
import { exitWith, readArguments } from '../node/command-line.ts';
import { variables } from '../node/variables.ts';
import { type Api, toolCaller } from './call.ts';
import { createMcpServer } from './server.ts';

// Whatever a library or the in-process mock prints with console.log goes to stderr, where an MCP
// client shows a server's log: a line on stdout would be read as a protocol message.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/v1';
const KEY_VARIABLE = 'ANIMAL_STORE_API_KEY';
/** How long the server at --base-url has to answer the first request before the start gives up. */
const ANSWER_TIMEOUT_MS = 10_000;

const USAGE = `Usage: npm run --silent mcp -- [options]

  --base-url <url>   the API to call, with its version path (default: ${DEFAULT_BASE_URL});
                     the key is read from ${KEY_VARIABLE}
  --mock             call a stateful mock started in this process instead: no server, no key
  --read-only        offer only the operations that change nothing (GET)
  --help             this text, on stderr: stdout carries the protocol alone`;

/** The API the tools call, as the flags and the environment say; a usage error for what cannot work. */
async function apiToCall(): Promise<{ api: Api; readOnly: boolean; close: () => Promise<void> }> {
  const { values, positionals } = readArguments(process.argv.slice(2), {
    'base-url': { type: 'string' },
    mock: { type: 'boolean', default: false },
    'read-only': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}"; the MCP server takes flags only.`);
  const readOnly = values['read-only'] === true;
  if (values.mock) {
    if (values['base-url'] !== undefined)
      throw new UsageError('--mock and --base-url exclude each other: the mock is the API.');
    const mock = await startStatefulMock();
    return {
      api: { baseUrl: `${mock.url}${loadContract().basePath}`, apiKey: mock.apiKey },
      readOnly,
      close: mock.close,
    };
  }
  const baseUrl = values['base-url'] ?? DEFAULT_BASE_URL;
  const url = URL.parse(baseUrl);
  if (url === null || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '')
    throw new UsageError(`--base-url takes the API's http or https URL, like ${DEFAULT_BASE_URL}; got "${baseUrl}".`);
  const apiKey = variables(process.env).optional(KEY_VARIABLE);
  if (apiKey === undefined)
    throw new UsageError(
      `${KEY_VARIABLE} is not set: give it an API key of ${baseUrl} (npm run keys -- create), or run with --mock.`,
    );
  await expectAnswer(baseUrl, apiKey);
  return { api: { baseUrl, apiKey }, readOnly, close: async () => {} };
}

/**
 * The server at `baseUrl` answers, and takes the key: its root, like any path, is answered 401 for a
 * key it refuses before it is found to be no operation.
 */
async function expectAnswer(baseUrl: string, apiKey: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(baseUrl, {
      headers: { Authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as Error).cause ?? error;
    throw new PreconditionError(
      `${baseUrl} does not answer (${(cause as Error).message ?? String(cause)}); start the server (npm start), pass --base-url, or run with --mock.`,
    );
  }
  const body = await response.text();
  if (response.status === 401) throw new PreconditionError(`${baseUrl} refuses ${KEY_VARIABLE}: ${messageOf(body)}`);
}

/** An Error body's sentence; the body itself when it is none. */
function messageOf(body: string): string {
  try {
    const { message } = JSON.parse(body) as { message?: unknown };
    return typeof message === 'string' ? message : body;
  } catch {
    return body;
  }
}

try {
  const { api, readOnly, close } = await apiToCall();
  const contract = loadContract();
  const server = createMcpServer({ contract, call: toolCaller(contract, api), readOnly });
  const stop = async () => {
    await server.close();
    await close();
    process.exit(0);
  };
  // The client closing its end of stdin is how an MCP session ends; a signal stops it as well.
  process.stdin.once('end', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
  await server.connect(new StdioServerTransport());
} catch (error) {
  exitWith(error, 'npm run mcp');
}
