import path from 'node:path';
import { watch } from 'chokidar';
import { type ContractLocations, displayPath } from './locations.ts';
import { type Regeneration, regenerate } from './regenerate.ts';

export type WatchRegeneration = Regeneration & {
  /** Files whose change caused this run, relative to the root; empty for the run at start. */
  changed: string[];
  /** From the first change noticed to the outputs written (or the failure known). */
  ms: number;
};

export interface WatchOptions {
  locations: ContractLocations;
  /** Called after every run, including the first one at start; a failed run wrote nothing. */
  onRegenerated: (result: WatchRegeneration) => void;
  /** Quiet time after the last change before regenerating: editors save in bursts. */
  debounceMs?: number;
}

export interface ContractWatcher {
  close(): Promise<void>;
}

/**
 * Regenerates once, then again after every change under `openapi/` or to the lint
 * configuration, in this process (the tools stay loaded, so a run costs a fraction of a cold
 * start). Runs never overlap: changes during a run cause exactly one more run after it.
 * Resolves once the first run is done and the watcher is ready.
 */
export async function watchContract(options: WatchOptions): Promise<ContractWatcher> {
  const { locations, onRegenerated, debounceMs = 50 } = options;
  const changed = new Set<string>();
  let firstChangeAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const runOnce = async (): Promise<void> => {
    const files = [...changed].sort();
    const startedAt = firstChangeAt ?? performance.now();
    changed.clear();
    firstChangeAt = undefined;
    const result = await regenerate(locations);
    onRegenerated({ ...result, changed: files, ms: performance.now() - startedAt });
  };

  const drain = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await runOnce();
      } while (again);
    })().finally(() => {
      running = undefined;
    });
  };

  const isEditorScratch = (file: string): boolean => {
    const name = path.basename(file);
    return name.startsWith('.') || name.endsWith('~');
  };
  const watcher = watch([locations.sourceDir, locations.lintConfig], {
    ignoreInitial: true,
    ignored: (file) => isEditorScratch(file),
  });
  watcher.on('all', (_event, file) => {
    if (typeof file !== 'string') return;
    firstChangeAt ??= performance.now();
    changed.add(displayPath(locations, file));
    clearTimeout(timer);
    timer = setTimeout(drain, debounceMs);
  });
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', resolve);
    watcher.once('error', reject);
  });

  drain();
  await running;

  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
