// Tells an instance that the API keys changed in PostgreSQL, from whichever instance or tool
// changed them: a trigger on `api_keys` (migration 6) notifies KEY_CHANGES on every commit that
// creates, revokes, rotates or re-dates a key, and each instance LISTENs on a connection of its
// own. Until that connection listens, and again whenever it is lost, the instance cannot know of
// changes, so it says it is not `listening` and its key cache reads PostgreSQL instead.
import pg from 'pg';
import { connectionConfig, DEFAULT_CONNECT_TIMEOUT_MS } from './connection.ts';

/** The channel the `api_keys` trigger notifies (migration 6). */
const KEY_CHANGES = 'animal_store_api_keys';
/** The listening connection's name in pg_stat_activity. */
export const LISTENER_NAME = 'animal-store key changes';
/** How long after a lost connection the listener connects again. */
const RECONNECT_DELAY_MS = 1_000;

export interface KeyChanges {
  /** Whether every change from now on will be heard: the connection is up and listening. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Listens for key changes on a connection of its own to `url` (outside the pool, which it would
 * otherwise hold forever). `changed` runs on every notification, when the connection is lost, and
 * once it listens again (what changed meanwhile was not heard).
 */
export function listenForKeyChanges(url: string, changed: () => void): KeyChanges {
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = undefined;
    listening = false;
    changed();
    void connection.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, RECONNECT_DELAY_MS).unref();
  };
  const connect = () => {
    const connection = new pg.Client({
      ...connectionConfig(url, { connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS }),
      // Beside the pool's connections (`animal-store`) in pg_stat_activity: one per instance.
      application_name: LISTENER_NAME,
    });
    client = connection;
    connection.on('notification', (message) => {
      if (message.channel === KEY_CHANGES) changed();
    });
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    connection
      .connect()
      .then(() => connection.query(`LISTEN ${KEY_CHANGES}`))
      .then(() => {
        if (client !== connection) return;
        // Whatever changed before the LISTEN took effect was not heard: start afresh.
        changed();
        listening = true;
      })
      .catch(() => lost(connection));
  };
  connect();

  return {
    get listening() {
      return listening;
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
