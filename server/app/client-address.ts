import { getConnInfo } from '@hono/node-server/conninfo';
import ipaddr from 'ipaddr.js';
import type { AppContext } from '../../core/http-types.ts';

/**
 * The client's address as the rate limiter counts it: the socket's peer address, or behind a
 * proxy (the operator enables TRUST_PROXY) the last `X-Forwarded-For` entry, the one that proxy
 * appended, which a client cannot forge. An entry that is no IP address is ignored (the peer
 * address counts), so a client cannot make up a bucket per request, nor one of any size.
 */
export function clientAddressResolver(trustProxy: boolean): (c: AppContext) => string {
  // Every request's access line names its address, and a client sends many requests in a row
  // (over one connection, or through the one proxy): the last address's bucket is kept.
  let lastAddress: string | undefined;
  let lastBucket: string | undefined;
  const bucketOf = (raw: string | undefined) => {
    if (raw !== lastAddress) {
      lastAddress = raw;
      lastBucket = addressBucket(raw);
    }
    return lastBucket;
  };
  return (c) => {
    const forwarded = trustProxy ? c.req.header('X-Forwarded-For')?.split(',').at(-1)?.trim() : undefined;
    return (forwarded !== undefined && bucketOf(forwarded)) || bucketOf(getConnInfo(c).remote.address) || 'unknown';
  };
}

/**
 * The bucket of an address: an IPv4 address as such (an IPv4-mapped IPv6 address too), an IPv6
 * address by its /64, the network a provider gives one subscriber, who can use any of its 2^64
 * addresses, as the large providers limit them. Undefined for anything else: only the four-part
 * decimal IPv4 form, not the octal or hexadecimal ones that would name one address many ways.
 */
function addressBucket(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(raw)) return ipaddr.IPv4.parse(raw).toString();
  if (!ipaddr.IPv6.isValid(raw)) return undefined;
  const address = ipaddr.IPv6.parse(raw);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const [a = 0, b = 0, c = 0, d = 0] = address.parts;
  return `${new ipaddr.IPv6([a, b, c, d, 0, 0, 0, 0]).toString()}/64`;
}
