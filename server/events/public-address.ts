// Webhook targets must be public: an endpoint's URL is `https` to an address that is none of the
// classes below, checked at registration and again for the address each delivery connects to (a
// name may resolve elsewhere by then: DNS rebinding). WEBHOOKS_ALLOW_PRIVATE lifts both for
// development and tests. Names are resolved with a time limit, off libuv's thread pool (below).
import { Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** The address classes no webhook is sent to, as ipaddr.js names them, with how a message names them. */
const REFUSED: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a CGNAT (shared) address',
  private: 'a private address',
  uniqueLocal: 'a unique-local address',
};

/** The class that keeps `address` (an IP address) from being a webhook target (`a loopback address`); undefined for a public address. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 reaches 10.0.0.1.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return REFUSED[parsed.range()];
}

/**
 * What is wrong with `url` as a webhook target, in a sentence naming the body field; undefined
 * when it may be registered. A name that resolves to any refused address is refused, and so is one
 * whose servers do not answer in time; one that does not resolve (yet) is checked again at each
 * delivery.
 */
export async function webhookUrlProblem(
  url: string,
  allowPrivate: boolean,
  resolveHost: ResolveHost = hostResolver(),
): Promise<string | undefined> {
  const target = new URL(url);
  const problem = (reason: string) => `Body field \`url\` must be an https URL of a public address; ${reason}.`;
  if (allowPrivate) {
    return ['https:', 'http:'].includes(target.protocol) ? undefined : problem(`${target.protocol} is not https`);
  }
  if (target.protocol !== 'https:') return problem(`${target.protocol.slice(0, -1)} is not https`);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host);
    return refused && problem(`${host} is ${refused}`);
  }
  const addresses = await resolveHost(host).catch((error: unknown) => {
    if (error instanceof ResolveTimeout) return error;
    throw error;
  });
  if (addresses instanceof ResolveTimeout) return problem(addresses.message);
  for (const address of addresses) {
    const refused = refusedAddress(address);
    if (refused) return problem(`${host} resolves to ${address}, which is ${refused}`);
  }
  return undefined;
}

/**
 * The addresses a host name stands for now; none when it does not resolve. Rejects with a
 * ResolveTimeout when the name's servers do not answer in time.
 */
export type ResolveHost = (host: string) => Promise<string[]>;

/** How long a webhook target's name may take to resolve (WEBHOOKS_RESOLVE_TIMEOUT_MS), at registration and for each delivery's connection. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 2_000;

/** A name whose servers did not answer within the time limit. */
export class ResolveTimeout extends Error {
  constructor(host: string, timeoutMs: number) {
    super(`${host} did not resolve within ${timeoutMs} ms`);
    this.name = 'ResolveTimeout';
  }
}

export interface HostResolverOptions {
  /** How long a name may take, its A and AAAA queries together; DEFAULT_RESOLVE_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** The name servers asked (`127.0.0.1:5353`); the system's (resolv.conf) by default. */
  servers?: string[];
}

/**
 * Resolves with c-ares on the event loop, not `dns.lookup` (getaddrinfo on libuv's thread pool,
 * with no limit of ours: four slow names would hold every thread the file system, zlib and crypto
 * share), and gives up after `timeoutMs`. `localhost` and its subdomains are loopback (RFC 6761),
 * as getaddrinfo would have found in the hosts file.
 */
export function hostResolver({
  timeoutMs = DEFAULT_RESOLVE_TIMEOUT_MS,
  servers,
}: HostResolverOptions = {}): ResolveHost {
  return async (host) => {
    if (/(^|\.)localhost\.?$/i.test(host)) return ['127.0.0.1', '::1'];
    // A resolver of its own, so that giving up cancels this name's queries alone.
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers) resolver.setServers(servers);
    const timeout = new ResolveTimeout(host, timeoutMs);
    const family = (query: Promise<string[]>) =>
      query.catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ETIMEOUT') throw timeout;
        // No such name, no address of this family, a server's refusal: no address.
        return [];
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(timeout);
      }, timeoutMs);
    });
    try {
      const found = await Promise.race([
        Promise.all([family(resolver.resolve4(host)), family(resolver.resolve6(host))]),
        late,
      ]);
      return found.flat();
    } finally {
      clearTimeout(timer);
    }
  };
}
