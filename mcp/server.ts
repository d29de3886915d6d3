// The MCP server: the contract's operations as tools (tools.ts), each call sent by `call`
// (call.ts). The SDK's low-level `Server`, not its `McpServer`: McpServer registers a tool with a
// zod schema, and these tools' schemas are the contract's JSON Schema, read at start.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Contract } from '../contract/contract.ts';
import type { CallTool } from './call.ts';
import { operationTools } from './tools.ts';

export interface McpServerOptions {
  contract: Contract;
  call: CallTool;
  /** Offer only the operations that change nothing (`GET`). */
  readOnly?: boolean;
}

export function createMcpServer({ contract, call, readOnly = false }: McpServerOptions): Server {
  const tools = operationTools(contract, { readOnly });
  const { info } = contract.document;
  const server = new Server(
    { name: 'animal-store', title: info.title, version: info.version },
    {
      capabilities: { tools: {} },
      ...(typeof info.summary === 'string' && { instructions: info.summary }),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(({ tool }) => tool) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: args = {} } = request.params;
    const found = tools.find(({ tool }) => tool.name === name);
    if (found === undefined) {
      const why = readOnly && contract.operations.some((operation) => operation.operationId === name);
      throw new McpError(
        ErrorCode.InvalidParams,
        why ? `Tool ${name} changes data, and this server offers read-only tools (--read-only).` : `No tool ${name}.`,
      );
    }
    return call(found, args);
  });
  return server;
}
