/**
 * The storage cannot do the work right now (a commit failed, the disk is full, the database is
 * locked or unreachable): answered 503 `service_unavailable` with `Retry-After`, never 500 and
 * never a success. A write may have reached the storage before the failure was seen (a timeout
 * while PostgreSQL commits), so the answer promises nothing changed only for reads.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';

  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The storage is unavailable: ${reason}`, options);
  }
}
