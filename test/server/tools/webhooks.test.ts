// `npm run webhooks`: the operator lists the deliveries that failed for good and delivers one
// again, with the same webhook-id; bad usage is exit code 2 with the usage.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../../server/storage/open.ts';
import { runWebhooksCommand, USAGE } from '../../../server/tools/webhooks.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();

async function run(argv: string[], path: string) {
  let stdout = '';
  let stderr = '';
  const code = await runWebhooksCommand(argv, {
    storage: { engine: 'sqlite', path },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** A database with one pet.created delivery that failed for good; its webhook-id. */
async function withFailedDelivery(path: string): Promise<string> {
  const storage = await openStorage({ engine: 'sqlite', path });
  try {
    const { record } = await storage.keys.create({ plan: 'free' });
    await storage.collections('webhook_endpoints').create({
      url: 'https://93.184.215.14/hooks',
      events: ['pet.created'],
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Jf6rmMEv2U=',
      createdAt: new Date().toISOString(),
      keyLine: record.lineage,
    });
    await storage.collections('pets').create({ name: 'Rex', categoryId: 1, status: 'available' });
    const [due] = await storage.webhooks.claimDue(Date.now(), 10, Date.now() + 1000);
    if (!due) throw new Error('The create recorded no delivery.');
    await storage.webhooks.attemptFailed(due.id, 'answered 500', undefined);
    return due.id;
  } finally {
    await storage.close();
  }
}

describe('webhooks failed', () => {
  it('lists each delivery that failed for good with its webhook-id, type, URL and last error', async () => {
    const path = join(tempDir(), 'hooks.db');
    const id = await withFailedDelivery(path);
    const { code, stdout } = await run(['failed'], path);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(
        `^${id}\\s+pet\\.created\\s+we_[\\w-]+\\s+https://93\\.184\\.215\\.14/hooks\\s+1\\s+\\S+\\s+answered 500$`,
        'm',
      ),
    );
  });

  it('says when none failed', async () => {
    const { code, stdout } = await run(['failed'], join(tempDir(), 'empty.db'));
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'No failed deliveries.\n' });
  });
});

describe('webhooks redeliver', () => {
  it('makes the delivery due again with the same webhook-id, and no longer failed', async () => {
    const path = join(tempDir(), 'hooks.db');
    const id = await withFailedDelivery(path);
    expect(await run(['redeliver', id], path)).toMatchObject({ code: 0, stdout: `Delivering ${id} again.\n` });
    expect((await run(['failed'], path)).stdout).toBe('No failed deliveries.\n');
    const storage = await openStorage({ engine: 'sqlite', path });
    const [due] = await storage.webhooks.claimDue(Date.now(), 10, Date.now() + 1000);
    await storage.close();
    expect(due?.id).toBe(id);
  });

  it.each([
    [['redeliver'], /needs the webhook-id/],
    [['redeliver', 'nope'], /no webhook-id/],
    [['failed', '--limit', '0'], /--limit must be a positive integer/],
    [['purge'], /Unknown command "purge"/],
    [[], /A command is required/],
  ])('refuses %j with exit code 2 and the usage', async (argv, message) => {
    const { code, stderr } = await run(argv, join(tempDir(), 'usage.db'));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain(USAGE);
  });

  it('refuses a webhook-id no delivery has, with exit code 2', async () => {
    const { code, stderr } = await run(['redeliver', 'evt_AAAAAAAAAAAAAAAAAAAAAA'], join(tempDir(), 'none.db'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/no delivery has the webhook-id evt_AAAAAAAAAAAAAAAAAAAAAA/);
  });
});
