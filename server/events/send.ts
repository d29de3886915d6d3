// One attempt to deliver a webhook: a POST of the body as it was recorded, signed for this
// attempt, answered 2xx within the timeout or not at all. No redirect is followed (a 3xx is a
// failed attempt), and the address connected to is checked as registration checked the URL's,
// so a name that resolves to a private address by now (DNS rebinding) gets nothing.
import http from 'node:http';
import https from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { hostResolver, type ResolveHost, refusedAddress } from './public-address.ts';
import { webhookSignature } from './signature.ts';

export interface Attempt {
  id: string;
  url: string;
  secret: string;
  body: string;
  /** Unix milliseconds of the attempt, whose whole seconds are its `webhook-timestamp`. */
  now: number;
}

export interface SendOptions {
  timeoutMs: number;
  /** `AnimalStore-Webhooks/<contract version>`. */
  userAgent: string;
  /** WEBHOOKS_ALLOW_PRIVATE: connect to any address, over http too. */
  allowPrivate: boolean;
  /** How the target's host name is resolved for the connection, with its time limit; hostResolver() by default. */
  resolveHost?: ResolveHost;
}

const defaultResolver = hostResolver();

/** Undefined when the endpoint answered 2xx in time; otherwise what went wrong, for the operator. */
export function send(
  attempt: Attempt,
  { timeoutMs, userAgent, allowPrivate, resolveHost = defaultResolver }: SendOptions,
): Promise<string | undefined> {
  const target = new URL(attempt.url);
  if (!allowPrivate) {
    if (target.protocol !== 'https:') return Promise.resolve(`${target.protocol} is not https`);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    // Node resolves no literal address, so the lookup below never sees it.
    const refused = ipaddr.isValid(host) ? refusedAddress(host) : undefined;
    if (refused) return Promise.resolve(`${host} is ${refused}`);
  }
  const timestamp = Math.floor(attempt.now / 1000);
  const body = Buffer.from(attempt.body);
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    const req = request(target, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
        'User-Agent': userAgent,
        'webhook-id': attempt.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(attempt.secret, attempt.id, timestamp, attempt.body),
      },
      // A fresh connection per attempt: the address is checked for each one.
      agent: false,
      ...(!allowPrivate && { lookup: publicLookup(resolveHost) }),
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      resolve(problem);
    };
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // The answer's body is not read: only its status counts.
      res.resume();
      res.on('end', () => done(status >= 200 && status < 300 ? undefined : `answered ${status}`));
      res.on('error', (error) => done(error.message));
    });
    req.on('error', (error) => done(error.message));
    req.end(body);
  });
}

/** The connection's lookup through `resolveHost`, refusing a name any of whose addresses is not public. */
function publicLookup(resolveHost: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname).then(
      (addresses) => {
        for (const address of addresses) {
          const refused = refusedAddress(address);
          if (refused) return callback(new Error(`${hostname} resolves to ${address}, which is ${refused}`), '', 0);
        }
        const found = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
        const [first] = found;
        if (!first) return callback(new Error(`${hostname} resolves to no address`), '', 0);
        if (options.all) return (callback as unknown as (error: null, all: typeof found) => void)(null, found);
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
