import type pg from 'pg';
import { withPostgres } from './errors.ts';

/** A statement that each pooled connection prepares once, under its name, and then only executes. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/** Runs `statement` with `values` on a connection of the pool; unreachable PostgreSQL becomes `UnavailableError`. */
export function execute<Row extends pg.QueryResultRow>(
  pool: pg.Pool | pg.PoolClient,
  statement: NamedStatement,
  values: unknown[],
): Promise<pg.QueryResult<Row>> {
  return withPostgres(() => pool.query<Row>({ name: statement.name, text: statement.text, values }));
}
