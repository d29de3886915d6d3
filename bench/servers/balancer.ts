// The load balancer of `npm run bench:scale-out`: a TCP proxy that hands each new connection to
// the next instance in turn (round robin per connection, as HAProxy's `mode tcp` or nginx's
// `stream` would) and then only copies bytes both ways. It reads no HTTP, so it adds no parsing,
// only the extra hop and the copying. It runs as a process of its own, like a real balancer, so
// its CPU can be counted apart from the instances' and the bench's.
// BALANCER_TARGETS: `host:port,host:port,...`; prints `listening on http://127.0.0.1:<port>/v1`.
import { connect, createServer, type Socket } from 'node:net';

const targets = (process.env.BALANCER_TARGETS ?? '').split(',').map((target) => {
  const [host, port] = target.split(':');
  if (!host || !port) throw new Error(`BALANCER_TARGETS must be host:port,... (got "${target}")`);
  return { host, port: Number(port) };
});

let next = 0;
const server = createServer({ noDelay: true }, (client: Socket) => {
  const target = targets[next % targets.length];
  next += 1;
  if (target === undefined) return client.destroy();
  const upstream = connect({ host: target.host, port: target.port, noDelay: true });
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.once('error', end).once('close', end);
  upstream.once('error', end).once('close', end);
  client.pipe(upstream);
  upstream.pipe(client);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The balancer has no TCP address.');
  process.stdout.write(`listening on http://127.0.0.1:${address.port}/v1 (to ${targets.length} instances)\n`);
});
process.on('SIGTERM', () => process.exit(0));
