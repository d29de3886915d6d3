// The `msw` target's process: the package's MSW handlers installed with msw/node, as a consumer's
// tests install them, behind an HTTP port for the suite. Each request the suite sends is sent
// again with fetch to the mocked origin, where MSW intercepts it and the handlers answer.
// Run as `node --import tsx msw-bridge.ts <dist/msw.js of a built package>`; prints the origin.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { setupServer } from 'msw/node';

type MswEntry = typeof import('../../../client/msw/index.ts');

/** An origin no network has: every request the suite makes reaches the handlers or fails. */
const MOCKED_ORIGIN = 'http://animal-store.msw.invalid';
/** Connection-level headers of the suite's request; fetch sets its own. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

const [entry] = process.argv.slice(2);
if (!entry) throw new Error('Usage: msw-bridge.ts <path of the package build dist/msw.js>');
const { createMockHandlers } = (await import(pathToFileURL(entry).href)) as MswEntry;

setupServer(...createMockHandlers({ baseUrl: `${MOCKED_ORIGIN}/v1`, stateful: true })).listen({
  onUnhandledRequest: 'error',
});

async function bodyOf(request: IncomingMessage): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

const server = createServer(async (request, response) => {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || NOT_FORWARDED.has(name)) continue;
      for (const each of [value].flat()) headers.append(name, each);
    }
    const answer = await fetch(`${MOCKED_ORIGIN}${request.url}`, {
      method: request.method,
      headers,
      body: await bodyOf(request),
      redirect: 'manual',
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const answerHeaders = [...answer.headers].filter(([name]) => !NOT_FORWARDED.has(name));
    response.writeHead(answer.status, [...answerHeaders.flat(), 'content-length', String(body.length)]);
    response.end(body);
  } catch (error) {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`The MSW handlers did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}\n`);
});
