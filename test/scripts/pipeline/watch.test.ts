import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ContractWatcher, type WatchRegeneration, watchContract } from '../../../scripts/pipeline/watch.ts';
import { createWorkspace, type Workspace } from '../../support/workspace.ts';

describe('watchContract', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  let watcher: ContractWatcher;
  let results: ResultQueue;
  beforeEach(async () => {
    workspace = await createWorkspace();
    results = new ResultQueue();
    watcher = await watchContract({ locations: workspace.locations, onRegenerated: results.push });
  });
  afterEach(async () => {
    await watcher.close();
    await workspace.dispose();
  });

  it('regenerates once at start, finding generated/ already current', async () => {
    const first = await results.next();

    expect(first).toMatchObject({ ok: true, written: [], changed: [] });
  });

  it('regenerates after an edit to a file deep under openapi/', async () => {
    await results.next();

    await workspace.editYaml('openapi/components/schemas/Pet.yaml', (schema) => {
      schema.description = 'An animal, as the watcher saw it.';
    });
    const [result, ...repeats] = await results.burst();

    expect(result).toMatchObject({ ok: true, changed: ['openapi/components/schemas/Pet.yaml'] });
    expect(result.ok && result.written).toEqual(['openapi.json', 'openapi.ts', 'openapi.yaml']);
    expect(repeats.every((repeat) => repeat.ok && repeat.written.length === 0)).toBe(true);
    expect(await workspace.read('generated/openapi.yaml')).toContain('An animal, as the watcher saw it.');
  });

  it('reports an invalid edit, keeps the last good output, and recovers on the next valid edit', async () => {
    await results.next();
    const lastGood = await workspace.snapshotGenerated();

    await workspace.write('openapi/components/schemas/PetStatus.yaml', 'type: string\nenum: [available\n');
    const failed = await results.settled();

    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.findings.map((finding) => finding.file)).toContain(
      workspace.path('openapi/components/schemas/PetStatus.yaml'),
    );
    expect(await workspace.snapshotGenerated()).toEqual(lastGood);

    await workspace.write(
      'openapi/components/schemas/PetStatus.yaml',
      'type: string\ndescription: Availability status, after the fix.\nenum: [available, pending, sold]\nexamples: [available]\n',
    );
    const recovered = await results.settled();

    expect(recovered.ok).toBe(true);
    expect(await workspace.read('generated/openapi.yaml')).toContain('Availability status, after the fix.');
  });

  it('re-lints after a change to redocly.yaml', async () => {
    await results.next();

    await workspace.editYaml('redocly.yaml', (config) => {
      config.rules['rule/operation-id-camel-case'].assertions.casing = 'PascalCase';
    });
    const result = await results.settled();

    expect(result).toMatchObject({ ok: false, failedStep: 'lint', changed: ['redocly.yaml'] });
    expect(!result.ok && result.findings.map((finding) => finding.ruleId)).toContain('rule/operation-id-camel-case');
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The watcher's results in order, awaited one at a time. */
class ResultQueue {
  private readonly arrived: WatchRegeneration[] = [];
  private waiting: ((result: WatchRegeneration) => void) | undefined;

  readonly push = (result: WatchRegeneration): void => {
    if (this.waiting) {
      this.waiting(result);
      this.waiting = undefined;
    } else {
      this.arrived.push(result);
    }
  };

  /**
   * Every result of a burst: one save can reach the watcher as more than one event, so the runs
   * that follow an edit are collected until the watcher has been quiet for a while.
   */
  async burst(quietMs = 400): Promise<[WatchRegeneration, ...WatchRegeneration[]]> {
    const results: [WatchRegeneration, ...WatchRegeneration[]] = [await this.next()];
    for (;;) {
      await delay(quietMs);
      const later = this.arrived.splice(0);
      if (later.length === 0) return results;
      results.push(...later);
    }
  }

  /** The state a burst left behind: its last result. */
  async settled(): Promise<WatchRegeneration> {
    const [first, ...later] = await this.burst();
    return later.at(-1) ?? first;
  }

  next(): Promise<WatchRegeneration> {
    const ready = this.arrived.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}
