import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRender, deleteRender, DomainError, expireRenderFiles, mintDownloadLink, openDownload, retryRenderJob } from '@svc/core';
import { downloadLinkTokens, signLinkToken } from '../src/shared/link-token.ts';
import { LocalStorage } from '../src/storage/local-storage.ts';
import { newId } from '../src/shared/ids.ts';
import { signingSecret } from '../src/settings/signing-secret.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;

beforeAll(async () => {
  ctx.config = { ...ctx.config, filesDir: await mkdtemp(join(tmpdir(), 'svc-files-')) };
  ctx.storage = new LocalStorage(ctx.config.filesDir);
});

async function succeededJob(accountId: string, expiresAt: Date) {
  const id = newId('pdf_');
  const storageKey = `${accountId}/${id}-1.pdf`;
  await ctx.storage.put(storageKey, Buffer.from('%PDF-1.7 test'));
  return ctx.db.renderJob.create({
    data: {
      id,
      accountId,
      kind: 'pdf',
      status: 'succeeded',
      credit: 'settled',
      filename: 'doc',
      options: {},
      mediaType: 'application/pdf',
      byteSize: 13,
      sha256: 'a'.repeat(64),
      storageKey,
      expiresAt,
      finishedAt: ctx.clock(),
    },
  });
}

describe('retention', () => {
  it('removes files past retention and marks them expired; a later DELETE keeps expired', async () => {
    const account = await accountWith(ctx, { plan: 'scale' });
    const now = ctx.clock().getTime();
    const old = await succeededJob(account.accountId, new Date(now - 1000));
    const fresh = await succeededJob(account.accountId, new Date(now + 3600_000));
    expect(await expireRenderFiles(ctx)).toBeGreaterThanOrEqual(1);
    expect(await ctx.storage.exists(old.storageKey!)).toBe(false);
    expect(await ctx.storage.exists(fresh.storageKey!)).toBe(true);
    expect((await ctx.db.renderJob.findUniqueOrThrow({ where: { id: old.id } })).removedReason).toBe('expired');
    expect((await ctx.db.renderJob.findUniqueOrThrow({ where: { id: fresh.id } })).removedReason).toBeNull();
    const afterDelete = await deleteRender(ctx, { accountId: account.accountId, kind: 'pdf', jobId: old.id });
    expect(afterDelete.removedReason).toBe('expired');
    expect(await mintDownloadLink(ctx, afterDelete)).toBeNull();
  });
});

describe('download links', () => {
  it('answers 403 download_expired for a genuine expired link and 404 for a forged one', async () => {
    const account = await accountWith(ctx, { plan: 'scale' });
    const job = await succeededJob(account.accountId, new Date(ctx.clock().getTime() + 3600_000));
    const secret = await signingSecret(ctx);
    const expired = signLinkToken(downloadLinkTokens, secret, job.id, new Date(ctx.clock().getTime() - 1000));
    await expect(openDownload(ctx, expired)).rejects.toMatchObject({ code: 'download_expired' });
    const forged = signLinkToken(downloadLinkTokens, 'another secret', job.id, new Date(ctx.clock().getTime() + 60_000));
    await expect(openDownload(ctx, forged)).rejects.toMatchObject({ code: 'not_found' });
    const valid = signLinkToken(downloadLinkTokens, secret, job.id, new Date(ctx.clock().getTime() + 60_000));
    const opened = await openDownload(ctx, valid);
    expect(opened).toMatchObject({ mediaType: 'application/pdf', filename: 'doc.pdf' });
    opened.stream.destroy();
  });
});

describe('admission', () => {
  it('answers 503 overloaded with a retry hint when the backlog is over its bound, charging nothing', async () => {
    const account = await accountWith(ctx, { plan: 'free', credits: 1 });
    const tight = { ...ctx, config: { ...ctx.config, maxRenderBacklog: 0 } };
    const error = await createRender(tight, { principal: account, kind: 'pdf', request: { html: '<p>x</p>', wait: false }, idempotencyKey: null }).catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'overloaded', retryAfterSeconds: 5 });
    expect(await ctx.db.renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    const admitted = await createRender(ctx, { principal: account, kind: 'pdf', request: { html: '<p>x</p>', wait: false }, idempotencyKey: null });
    expect(admitted.finished).toBe(false);
    expect(admitted.job.credit).toBe('reserved');
    expect(await ctx.db.renderQueueEntry.findMany({ select: { jobId: true, bulk: true } })).toEqual([{ jobId: admitted.job.id, bulk: false }]);
    expect(existsSync(ctx.config.filesDir)).toBe(true);
  });
});

describe('render creation tokens', () => {
  const tokensOf = async (keyId: string) =>
    (await ctx.db.$queryRaw<{ tokens: number }[]>`SELECT tokens::float8 AS tokens FROM rate_limit_buckets WHERE key = ${`render_creation:key:${keyId}`}`)[0]?.tokens;

  it('are taken once per admitted render, paid by a bucket or by overage', async () => {
    const account = await accountWith(ctx, { plan: 'scale', credits: 1 });
    const render = () => createRender(ctx, { principal: account, kind: 'pdf', request: { html: '<p>x</p>', wait: false }, idempotencyKey: null });
    const first = await render();
    expect(await tokensOf(account.keyId)).toBeCloseTo(20, 0);
    // no credit left: the second is paid by overage, admitted the general way, with one token more
    const second = await render();
    const sources = await ctx.db.creditReservation.findMany({ where: { jobId: { in: [first.job.id, second.job.id] } }, select: { jobId: true, source: true } });
    expect(sources.find((row) => row.jobId === second.job.id)?.source).toBe('overage');
    expect(await tokensOf(account.keyId)).toBeCloseTo(19, 0);
  });

  it('refuse past the burst with 429 and its retry, taking no token, no credit and no job', async () => {
    const account = await accountWith(ctx, { plan: 'scale', credits: 100 });
    await ctx.db.$executeRaw`INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES (${`render_creation:key:${account.keyId}`}, 0.5, ${ctx.clock()})`;
    const error = await createRender(ctx, { principal: account, kind: 'pdf', request: { html: '<p>x</p>', wait: false }, idempotencyKey: null }).catch((e) => e);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 1 });
    expect(await tokensOf(account.keyId)).toBeGreaterThanOrEqual(0.5);
    expect(await ctx.db.renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await ctx.db.creditReservation.count({ where: { accountId: account.accountId } })).toBe(0);
  });
});

describe('inputs of failed jobs', () => {
  async function failedJob(accountId: string, finishedAt: Date) {
    const id = newId('pdf_');
    await ctx.db.renderJob.create({
      data: { id, accountId, kind: 'pdf', status: 'failed', credit: 'released', filename: 'doc', options: {}, errorCategory: 'timeout', errorCode: 'render_timeout', finishedAt, input: { create: { html: '<p>x</p>' } } },
    });
    return id;
  }

  it('are kept for a retry through the retention window, then removed by the sweep; a job removed from history drops it at once', async () => {
    const account = await accountWith(ctx, { plan: 'scale', credits: 5 });
    const now = ctx.clock().getTime();
    const old = await failedJob(account.accountId, new Date(now - ctx.config.retentionMs - 1000));
    const recent = await failedJob(account.accountId, new Date(now - 1000));
    const hidden = await failedJob(account.accountId, new Date(now - 1000));
    await expireRenderFiles(ctx);
    expect(await ctx.db.renderInput.findUnique({ where: { jobId: old } })).toBeNull();
    expect(await ctx.db.renderInput.findUnique({ where: { jobId: recent } })).not.toBeNull();
    await deleteRender(ctx, { accountId: account.accountId, kind: 'pdf', jobId: hidden });
    expect(await ctx.db.renderInput.findUnique({ where: { jobId: hidden } })).toBeNull();

    // a retry needs the input: past retention or removed from history it answers 409, charging nothing
    await expect(retryRenderJob(ctx, { jobId: old })).rejects.toMatchObject({ code: 'operation_conflict' });
    await expect(retryRenderJob(ctx, { jobId: hidden })).rejects.toMatchObject({ code: 'operation_conflict' });
    const retried = await retryRenderJob(ctx, { jobId: recent });
    expect(retried).toMatchObject({ status: 'queued', credit: 'reserved', retryOf: recent, accountId: account.accountId, keyId: null });
    expect((await ctx.db.renderInput.findUniqueOrThrow({ where: { jobId: retried.id } })).html).toBe('<p>x</p>');
    const balances = await ctx.db.creditBalance.findMany({ where: { accountId: account.accountId } });
    expect(balances.reduce((sum, row) => sum + row.balance, 0)).toBe(4);
  });
});
