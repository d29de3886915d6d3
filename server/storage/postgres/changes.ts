// Tells an instance what changed in PostgreSQL, from whichever instance or tool changed it:
// triggers notify a channel on every commit that changes the API keys (migration 6) or a
// collection's table (collections.ts, with the table's name), and each instance LISTENs on a
// connection of its own. Until that connection listens, and again whenever it is lost, the
// instance cannot know of changes, so it says it is not `listening` and its caches read
// PostgreSQL instead.
import pg from 'pg';
import { connectionConfig, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_QUERY_TIMEOUT_MS } from './connection.ts';
import { withPostgres } from './errors.ts';

/** The channel the `api_keys` trigger notifies (migration 6). */
export const KEY_CHANGES = 'animal_store_api_keys';
/** The channel each collection table's trigger notifies, with the table's name. */
export const COLLECTION_CHANGES = 'animal_store_collections';
/** The listening connection's name in pg_stat_activity. */
export const LISTENER_NAME = 'animal-store changes';
/** How long after a lost connection the listener connects again. */
const RECONNECT_DELAY_MS = 1_000;

/** Called with a notification's payload; with none when anything may have changed unheard. */
type Heard = (payload: string | undefined) => void;

export interface Changes {
  /** Whether every change from now on will be heard: the connection is up and listening. */
  readonly listening: boolean;
  /** Calls `heard` on each notification of `channel`, when the connection is lost, and once it listens again. */
  subscribe(channel: string, heard: Heard): void;
  /**
   * Resolves once every change committed before the call has been heard: a round trip on the
   * listening connection, whose notifications PostgreSQL sends before its answer. Calls made
   * while one is on its way share the next. Rejects when the connection is not listening, and
   * with UnavailableError when the round trip fails or takes longer than a statement may (the
   * connection is then dropped and made again).
   */
  heard(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on a connection of its own to `url`, outside the pool, which it would otherwise hold
 * forever; its round trips may take `queryTimeoutMs`, as the pool's statements.
 */
export function listenForChanges(url: string, queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS): Changes {
  const subscribers = new Map<string, Heard[]>();
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let onItsWay: Promise<void> | undefined;
  let following: Promise<void> | undefined;

  const unheard = () => {
    for (const each of subscribers.values()) for (const heard of each) heard(undefined);
  };
  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = undefined;
    listening = false;
    unheard();
    void connection.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, RECONNECT_DELAY_MS).unref();
  };
  const connect = () => {
    const connection = new pg.Client({
      ...connectionConfig(url, { connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS, queryTimeoutMs }),
      // Beside the pool's connections (`animal-store`) in pg_stat_activity: one per instance.
      application_name: LISTENER_NAME,
    });
    client = connection;
    connection.on('notification', ({ channel, payload }) => {
      for (const heard of subscribers.get(channel) ?? []) heard(payload ?? '');
    });
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    connection
      .connect()
      .then(() => connection.query(`LISTEN ${KEY_CHANGES}; LISTEN ${COLLECTION_CHANGES}`))
      .then(() => {
        if (client !== connection) return;
        // Whatever changed before the LISTEN took effect was not heard: start afresh.
        unheard();
        listening = true;
      })
      .catch(() => lost(connection));
  };
  const roundTrip = (): Promise<void> => {
    const connection = client;
    if (!listening || !connection) return Promise.reject(new Error('Not listening for changes.'));
    const trip = withPostgres(() => connection.query('SELECT 1')).then(
      () => {},
      (error: unknown) => {
        // A connection that cannot answer in time may have missed notifications: make it again.
        lost(connection);
        throw error;
      },
    );
    onItsWay = trip;
    const done = () => {
      if (onItsWay === trip) onItsWay = undefined;
    };
    trip.then(done, done);
    return trip;
  };
  connect();

  return {
    get listening() {
      return listening;
    },
    subscribe(channel, heard) {
      subscribers.set(channel, [...(subscribers.get(channel) ?? []), heard]);
    },
    heard() {
      if (onItsWay === undefined) return roundTrip();
      // The one on its way may have been answered before this call's changes were committed.
      following ??= onItsWay
        .catch(() => {})
        .then(() => {
          following = undefined;
          return roundTrip();
        });
      return following;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      listening = false;
      await connection?.end().catch(() => {});
    },
  };
}
