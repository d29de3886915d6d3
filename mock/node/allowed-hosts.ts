// The mocks answer only requests addressed to this machine by name or loopback address, or to a
// host the developer lists, as dev servers such as Vite do: a web page that rebinds its own DNS
// name to 127.0.0.1 sends its name as Host, so it cannot reach the mocks (nor `/__mock/*`).
import ipaddr from 'ipaddr.js';
import { errors } from '../../core/errors.ts';
import type { MockApp } from '../app/app.ts';

/** `fetch`, answering a request whose `Host` is neither loopback nor in `allowed` with a 400 Error body. */
export function onlyAllowedHosts(fetch: MockApp['fetch'], allowed: readonly string[] = []): MockApp['fetch'] {
  const listed = new Set(allowed.map((host) => host.toLowerCase()));
  return async (request, env) => {
    const host = request.headers.get('host') ?? '';
    const name = hostName(host);
    if (isLoopback(name) || listed.has(name)) return fetch(request, env);
    const message =
      `The mock answers only requests for localhost, 127.0.0.1 or [::1]${listed.size > 0 ? ` or ${[...listed].join(', ')}` : ''}; ` +
      `the Host header names \`${host.slice(0, 100)}\`. List other host names in MOCK_ALLOWED_HOSTS.`;
    const { body, status } = errors.mockControl(message);
    return Response.json(body, { status });
  };
}

/** The host name of a `Host` header value, without its port or an IPv6 address's brackets, in lower case. */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(host);
  if (bracketed) return (bracketed[1] ?? '').toLowerCase();
  return host.replace(/:\d*$/, '').toLowerCase();
}

function isLoopback(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return ipaddr.isValid(name) && ipaddr.parse(name).range() === 'loopback';
}
