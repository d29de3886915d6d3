// `npm run mcp` as an MCP client starts it: the SDK's own Client over its stdio transport, with the
// command an MCP client's configuration names (the README's snippet).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { defined } from './defined.ts';

export interface McpSession {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /**
   * What the transport could not read as a protocol message: anything else written to stdout
   * lands here, so a session that ends with none wrote the protocol alone.
   */
  unreadable: Error[];
  close(): Promise<void>;
}

/** Starts `npm run --silent mcp -- <args>` in `cwd` (this repository by default) and connects to it. */
export async function connectMcp(
  args: string[],
  { env = {}, cwd = REPOSITORY_ROOT }: { env?: Record<string, string>; cwd?: string } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: 'npm',
    args: ['run', '--silent', 'mcp', '--', ...args],
    cwd,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const unreadable: Error[] = [];
  transport.onerror = (error) => unreadable.push(error);
  const client = new Client({ name: 'animal-store-tests', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`npm run mcp did not connect: ${String(error)}\n${stderr}`);
  }
  return { client, stderr: () => stderr, unreadable, close: () => client.close() };
}

/** A tool result's text blocks, in order. */
export function texts(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

/** The first text block, read as JSON: the body the API answered. */
export function bodyOf(result: CallToolResult): unknown {
  return JSON.parse(defined(texts(result)[0], 'a text block'));
}
