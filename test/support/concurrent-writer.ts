import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./fixtures/write-pets.ts', import.meta.url));

export interface ConcurrentWriter {
  /** Resolves once the writer has created `count` pets in all. */
  until(count: number): Promise<void>;
  /** The pets the writer has created so far. */
  readonly acknowledged: number;
  stop(): Promise<void>;
}

/** Another process creating pets in `path` through the real SqlitePetStore, one commit each, until stopped. */
export function startConcurrentWriter(path: string): ConcurrentWriter {
  const child = spawn(process.execPath, ['--import', 'tsx', script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let acknowledged = 0;
  let running = true;
  let wake = () => {};
  createInterface({ input: child.stdout }).on('line', () => {
    acknowledged += 1;
    wake();
  });
  void exited.then(() => {
    running = false;
    wake();
  });

  return {
    get acknowledged() {
      return acknowledged;
    },
    async until(count) {
      while (acknowledged < count) {
        if (!running) throw new Error(`The writer exited after ${acknowledged} of ${count} pets.`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
