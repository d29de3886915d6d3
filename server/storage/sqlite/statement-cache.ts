import type { Database, Statement } from 'better-sqlite3';

const statements = new WeakMap<Database, Map<string, Statement>>();
const keptForLife = new Set<Database>();

/**
 * The statement for `sql`, prepared once per database and kept as long as it. Besides saving
 * the parse, this keeps statements from being garbage collected: better-sqlite3 12 aborts the
 * process on Node 24 when it finalizes a collected statement (WiseLibs/better-sqlite3#1515).
 * For the same reason, settings are written with `exec` rather than `pragma`.
 */
export function statement<Params extends unknown[] = unknown[], Row = unknown>(
  db: Database,
  sql: string,
): Statement<Params, Row> {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared as Statement<Params, Row>;
}

/**
 * Keeps a database the process opened for a moment (the start's integrity check), and the
 * statements prepared on it here, from ever being collected, for the same reason: closed, they
 * are still native objects whose finalizer aborts Node 24.
 */
export function keepForLife(db: Database): void {
  keptForLife.add(db);
}
