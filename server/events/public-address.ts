// Webhook targets must be public: an endpoint's URL is `https` to an address that is none of the
// classes below, checked at registration and again for the address each delivery connects to (a
// name may resolve elsewhere by then: DNS rebinding). WEBHOOKS_ALLOW_PRIVATE lifts both for
// development and tests.
import { lookup } from 'node:dns/promises';
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
 * when it may be registered. A name that resolves to any refused address is refused; one that
 * does not resolve (yet) is checked again at each delivery.
 */
export async function webhookUrlProblem(
  url: string,
  allowPrivate: boolean,
  resolveHost: ResolveHost = resolveWithDns,
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
  for (const address of await resolveHost(host)) {
    const refused = refusedAddress(address);
    if (refused) return problem(`${host} resolves to ${address}, which is ${refused}`);
  }
  return undefined;
}

/** The addresses a host name stands for now; none when it does not resolve. */
export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = (host) =>
  lookup(host, { all: true, verbatim: true }).then(
    (found) => found.map(({ address }) => address),
    () => [],
  );
