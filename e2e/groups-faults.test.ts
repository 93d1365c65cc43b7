// Faults around groups: concurrent identical creates make one group; retries racing running
// rows admit each row once. (A worker killed while a batch drains: apps/worker/test/group-crash.test.ts.)
import { describe, expect, it } from 'vitest';
import { api, newAccount, serviceDb } from './support/api.ts';
import { createGroup, newTemplate, settled } from './support/groups.ts';

const balance = async (accountId: string) => (await serviceDb().creditBalance.findFirst({ where: { accountId, bucket: 'trial' } }))?.balance;

describe('group faults', () => {
  it('makes one group of 20 concurrent identical creates with one key', async () => {
    const account = await newAccount({ plan: 'starter', credits: 20 });
    const template = await newTemplate(account.apiKey, { source: '<p>{{ n }}</p>' });
    const body = { template_id: template.id, format: 'pdf', rows: [{ n: 1 }, { n: 2 }, { n: 3 }] };
    const answers = await Promise.all(Array.from({ length: 20 }, () => createGroup('batches', account.apiKey, body, 'same-key')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(1);
    const batch = await settled('batches', account.apiKey, answers[0]!.body.id);
    expect(batch.state).toBe('complete');
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(3);
    expect(await balance(account.accountId)).toBe(17);
  });

  it('admits each row once when retries race rows that are still running', async () => {
    const account = await newAccount({ plan: 'scale', credits: 30 });
    const template = await newTemplate(account.apiKey, { source: '<p>{{ n }}</p>' });
    const rows = Array.from({ length: 12 }, (_, n) => ({ n }));
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'png', rows });
    const retries = await Promise.all(Array.from({ length: 5 }, () => api(`/v1/batches/${created.body.id}/retry`, { method: 'POST', key: account.apiKey })));
    for (const retry of retries) expect([200, 429]).toContain(retry.status);
    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(batch.state).toBe('complete');
    expect(await serviceDb().renderJob.count({ where: { groupId: batch.id } })).toBe(12);
    expect(await serviceDb().creditLedgerEntry.count({ where: { accountId: account.accountId, kind: 'reserve' } })).toBe(12);
    expect(await serviceDb().creditLedgerEntry.count({ where: { accountId: account.accountId, kind: 'settle' } })).toBe(12);
    expect(await balance(account.accountId)).toBe(18);
  });
});
