// Admissions serialise on the account row without blocking what a finishing job writes for the
// same account. A finish returns a credit (the balance row locked) and then writes its ledger
// entry, which takes the account row's key share through its foreign key; an admission that
// held the account row FOR UPDATE and then waited for the balance row closed a cycle that
// PostgreSQL broke by aborting one side (deadlock_detected, a 500 to the client).
import { expect, it } from 'vitest';
import { drainRenderGroups } from '../src/groups/drain-render-groups.ts';
import { newId } from '../src/shared/ids.ts';
import { accountWith, useTestContext } from './support.ts';

const { ctx } = useTestContext();

/** Backends of this database waiting for a lock. */
async function waitingForLocks(): Promise<number> {
  const [row] = await ctx.db.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return row?.waiting ?? 0;
}

it("admitting a batch's pending member waits for a finishing job of the same account instead of deadlocking with it", async () => {
  const { accountId, keyId } = await accountWith(ctx, { plan: 'scale', credits: 10, bucket: 'pack' });
  const templateId = newId('tpl_');
  await ctx.db.template.create({ data: { id: templateId, accountId, inputMode: 'html', latestVersion: 1 } });
  await ctx.db.templateVersion.create({ data: { templateId, version: 1, source: '<p>{{ n }}</p>', sizes: [] } });
  const groupId = newId('batch_');
  await ctx.db.renderGroup.create({ data: { id: groupId, accountId, keyId, kind: 'batch', templateId, templateVersion: 1, format: 'pdf', idempotencyKey: 'locks', fingerprint: 'x' } });
  await ctx.db.renderGroupMember.create({ data: { groupId, position: 0, accountId, state: 'pending', html: '<p>1</p>', options: { kind: 'pdf' }, assetIds: [] } });

  // the finish: the balance row first, the ledger entry once the admission waits for that row
  let balanceLocked!: () => void;
  const locked = new Promise<void>((resolve) => (balanceLocked = resolve));
  let admissionWaits!: () => void;
  const waits = new Promise<void>((resolve) => (admissionWaits = resolve));
  const finishing = ctx.db.$transaction(
    async (tx) => {
      await tx.$executeRaw`UPDATE credit_balances SET balance = balance + 1 WHERE account_id = ${accountId} AND bucket = 'pack'`;
      balanceLocked();
      await waits;
      await tx.$executeRaw`
        INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
        VALUES (${accountId}, ${newId('pdf_')}, ${keyId}, 'release', 'pack', 1, now())`;
    },
    { timeout: 60_000 },
  );
  await locked;
  const draining = drainRenderGroups(ctx, { accountId });
  const deadline = Date.now() + 30_000;
  while ((await waitingForLocks()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  admissionWaits();

  await expect(finishing).resolves.toBeUndefined();
  expect(await draining).toBe(1);
  const member = await ctx.db.renderGroupMember.findFirstOrThrow({ where: { groupId, position: 0 } });
  expect(member.state).toBe('admitted');
  const balance = await ctx.db.creditBalance.findFirstOrThrow({ where: { accountId, bucket: 'pack' } });
  expect(balance.balance).toBe(10);
}, 90_000);
