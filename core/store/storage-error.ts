/**
 * The storage cannot do the work right now (a commit failed, the disk is full, the database is
 * locked or unreachable). Nothing was changed, so the client may retry: answered 503
 * `service_unavailable` with `Retry-After`, never 500 and never a success.
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
