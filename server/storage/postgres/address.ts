// What a PostgreSQL URL is, and how it is named to people, without loading pg: the configuration
// reads DATABASE_URL whichever storage it picks.

/** The connections each instance opens to PostgreSQL at most, unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

const PROTOCOLS = new Set(['postgres:', 'postgresql:']);

export function isPostgresUrl(url: string): boolean {
  return URL.canParse(url) && PROTOCOLS.has(new URL(url).protocol);
}

/**
 * `PostgreSQL at host:port/database` for the start-up line and the tools' reports: never the
 * user's password, which the URL may carry.
 */
export function describePostgresUrl(url: string): string {
  if (!isPostgresUrl(url)) {
    throw new TypeError('A PostgreSQL URL looks like postgres://user:password@host:5432/database.');
  }
  const parsed = new URL(url);
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  const port = parsed.port || '5432';
  const database = decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username);
  return `PostgreSQL at ${host}:${port}/${database}`;
}
