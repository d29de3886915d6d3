// When each key was last used, to the minute, without a write per request: an instance writes a
// key's last use at most once per minute, when the first request of a new minute comes.

/** The keys one instance remembers having written this minute; more are forgotten oldest first. */
const REMEMBERED_KEYS = 10_000;
const MINUTE_MS = 60_000;

export class LastUseRecorder {
  /** The minute last written for each key, by key id, oldest write first. */
  readonly #written = new Map<number, number>();
  readonly #write: (id: number, minute: string) => Promise<unknown>;

  /** `write` stores the minute (ISO 8601) as the key's last use unless a later one is stored. */
  constructor(write: (id: number, minute: string) => Promise<unknown>) {
    this.#write = write;
  }

  /** Records a use of key `id` at `now`; writes only the first use of each minute. */
  used(id: number, now: number): void {
    const minute = Math.floor(now / MINUTE_MS);
    const written = this.#written.get(id);
    if (written !== undefined && written >= minute) return;
    this.#written.delete(id);
    this.#written.set(id, minute);
    if (this.#written.size > REMEMBERED_KEYS) {
      const [oldest] = this.#written.keys();
      if (oldest !== undefined) this.#written.delete(oldest);
    }
    // Not awaited: the request does not wait for a bookkeeping write, and a failed one (a locked
    // or unreachable database) loses only this minute's mark, tried again next minute.
    this.#write(id, new Date(minute * MINUTE_MS).toISOString()).catch(() => {
      if (this.#written.get(id) === minute) this.#written.delete(id);
    });
  }
}
