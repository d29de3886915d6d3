import type { Database } from 'better-sqlite3';
import { statement } from './statement-cache.ts';

/** How many times a connection has seen the database change; the connection's read caches compare it with their own count. */
interface ConnectionWatch {
  changes(): number;
  requestBegins(): void;
}

const watches = new WeakMap<Database, ConnectionWatch>();

/**
 * Answers whether anything may have been committed to the database since its previous call:
 * by this connection (`total_changes()`, from memory), or by any other connection, in this
 * process or another (the keys tool, a second server) (`PRAGMA data_version`, a read transaction
 * whose file locks cost some 6 µs). Every detector of one connection shares one look at the file:
 * once the server says when its requests begin (`requestBegins`), one look serves every read of
 * the requests that begin in the same turn of the event loop, until the next turn. Those requests
 * were all on their sockets before the turn's poll returned, so before the look: their reads see
 * every commit acknowledged before they were sent, exactly as fresh as reading SQLite itself
 * then. Until requests begin (the tools, a test's direct reads) every read looks.
 */
export function changeDetector(db: Database): () => boolean {
  const watch = watchOf(db);
  let seen: number | undefined;
  return () => {
    const changes = watch.changes();
    const changed = changes !== seen;
    seen = changes;
    return changed;
  };
}

/** Tells the connection's read caches that a request begins: the first read of this turn of the event loop looks at the file again. */
export function requestBegins(db: Database): void {
  watchOf(db).requestBegins();
}

function watchOf(db: Database): ConnectionWatch {
  let watch = watches.get(db);
  if (!watch) {
    watch = connectionWatch(db);
    watches.set(db, watch);
  }
  return watch;
}

function connectionWatch(db: Database): ConnectionWatch {
  const dataVersion = statement<[], number>(db, 'PRAGMA data_version').pluck();
  const ownChanges = statement<[], number>(db, 'SELECT total_changes()').pluck();
  let seenVersion: number | undefined;
  let seenOwn: number | undefined;
  let changes = 0;
  let servesRequests = false;
  let lookedThisTurn = false;
  let turnEnds = false;
  return {
    changes() {
      const own = ownChanges.get();
      if (own !== seenOwn) {
        seenOwn = own;
        changes += 1;
      }
      if (!(servesRequests && lookedThisTurn)) {
        const version = dataVersion.get();
        if (version !== seenVersion) {
          seenVersion = version;
          changes += 1;
        }
        lookedThisTurn = true;
      }
      return changes;
    },
    requestBegins() {
      servesRequests = true;
      if (turnEnds) return;
      lookedThisTurn = false;
      // setImmediate runs after the poll phase that brought this turn's requests.
      turnEnds = true;
      setImmediate(() => {
        turnEnds = false;
      });
    },
  };
}
