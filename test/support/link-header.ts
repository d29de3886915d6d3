/** The target of the response's `Link: <...>; rel="next"`, if it has one. */
export function nextLink(response: { headers: Headers }): string | undefined {
  return /<([^>]*)>\s*;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];
}
