/** A lone UTF-16 surrogate is no character, so UTF-8 cannot hold it: SQLite would silently replace it, PostgreSQL refuse it. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Throws RangeError for a pet name that no engine can store exactly as given. */
export function assertStorableName(name: string): void {
  if (LONE_SURROGATE.test(name)) {
    throw new RangeError('A pet name with a lone UTF-16 surrogate cannot be stored exactly.');
  }
}
