import type { Database, Statement } from 'better-sqlite3';

const statements = new WeakMap<Database, Map<string, Statement>>();

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
