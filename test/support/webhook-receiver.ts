// A local HTTP server that receives webhooks as an endpoint would: it keeps each request (its
// headers and the body's bytes as text) and answers with the status `answer` picks.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** `answer` gets the number of requests received before this one; 204 to all by default. */
export async function startWebhookReceiver(answer: (index: number) => number = () => 204): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = answer(received.length);
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status, status >= 300 && status < 400 ? { Location: 'http://127.0.0.1:9/elsewhere' } : {});
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The three Standard Webhooks headers of a received webhook, as strings. */
export function signatureHeaders({ headers }: ReceivedWebhook): Record<string, string> {
  return {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
}
