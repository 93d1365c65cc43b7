// The life of a render job on the worker side, with an engine of the test's own and the
// context's clock instead of a browser and real time: one claimer at a time, a lease another
// worker takes over once it runs out, a finish that happens at most once (the stale claimer
// is fenced off and its file removed), the credit settled or released exactly once, and
// recovery that takes up only jobs whose lease ran out.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '@svc/db';
import { emptyFindings, RenderError, type RenderOutput } from '@svc/contracts';
import { claimNextRender, createRender, handBackRender, recoverStaleRenders, type RenderEngine, renderQueuedChannel, type ServiceContext } from '@svc/core';
import { LocalStorage } from '../src/storage/local-storage.ts';
import { renderFinishedChannel } from '../src/ports/completion-waiter.ts';
import { createPreviewJob } from '../src/renders/preview-job.ts';
import { renderJobColumns } from '../src/renders/render-job-store.ts';
import { queueRender } from '../src/renders/render-queue.ts';
import { runRenderJob } from '../src/renders/run-render-job.ts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
let now = new Date('2026-03-15T12:00:00Z');

beforeAll(async () => {
  ctx.config = { ...ctx.config, filesDir: await mkdtemp(join(tmpdir(), 'svc-lifecycle-')) };
  ctx.storage = new LocalStorage(ctx.config.filesDir);
});

function advance(ms: number): void {
  now = new Date(now.getTime() + ms);
  test.setNow(now);
}

const tinyPdf: RenderOutput = { bytes: Buffer.from('%PDF-1.7\n%%EOF\n'), mediaType: 'application/pdf', pageCount: 1, findings: emptyFindings() };

/** An engine that answers from `render`, counting the calls it gets. */
function engine(render: () => Promise<RenderOutput>): RenderEngine & { calls: number } {
  const counted = {
    calls: 0,
    renderPdf: () => {
      counted.calls += 1;
      return render();
    },
    renderImage: () => {
      counted.calls += 1;
      return render();
    },
    adaptCanvas: () => Promise.reject(new Error('renders only')),
  };
  return counted;
}

/** An engine whose render starts, then waits until the test lets it finish. */
function heldEngine() {
  let started!: () => void;
  let release!: () => void;
  const startedOnce = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = engine(async () => {
    started();
    await released;
    return tinyPdf;
  });
  return { engine: held, started: startedOnce, release };
}

/** The same service, as seen by one worker process with its own engine. */
const worker = (renderEngine: RenderEngine): ServiceContext => ({ ...ctx, renderEngine });

async function queuedJob(credits = 3) {
  const principal = await accountWith(ctx, { plan: 'free', credits });
  const { job } = await createRender(ctx, { principal, kind: 'pdf', request: { html: '<p>invoice</p>', wait: false }, idempotencyKey: null });
  return { job, accountId: principal.accountId };
}

/** The payloads of the notices on `channel` from now on, until the listener closes. */
async function noticesOn(channel: string) {
  const notices: string[] = [];
  const listener = listen({ url: test.url(), channels: [channel], onNotice: (_channel, payload) => notices.push(payload) });
  await listener.connect();
  return { notices, listener };
}

const jobRow = (id: string) => ctx.db.renderJob.findUniqueOrThrow({ where: { id } });
const ledger = async (jobId: string) => (await ctx.db.creditLedgerEntry.findMany({ where: { jobId }, orderBy: { id: 'asc' } })).map((entry) => entry.kind);
const trialBalance = async (accountId: string) => (await ctx.db.creditBalance.findFirstOrThrow({ where: { accountId, bucket: 'trial' } })).balance;
const events = async (jobId: string) => (await ctx.db.renderEvent.findMany({ where: { jobId } })).map((event) => event.type);

describe('render creation', () => {
  it('answers the job record as the model reads it, every field under its own name and type', async () => {
    const { job } = await queuedJob();
    expect(job).toEqual(await jobRow(job.id));
    expect(job.createdAt).toBeInstanceOf(Date);
    expect(job.options).toMatchObject({ kind: 'pdf' });
  });

  it('answers a waiting render with the finished job as the model reads it, from its finish notice or, when too long for one, from the table', async () => {
    const { notices, listener } = await noticesOn(renderFinishedChannel);
    try {
      for (const footer of ['<span>short</span>', `<span>${'long '.repeat(2000)}</span>`]) {
        const principal = await accountWith(ctx, { plan: 'free', credits: 3 });
        const request = { html: '<p>invoice ✓ "quoted" \\ </p>', reference: 'ref ✓', pdf: { display_header_footer: true, footer_template: footer } };
        const answering = createRender(ctx, { principal, kind: 'pdf', request, idempotencyKey: null });
        const queued = await vi.waitFor(() => ctx.db.renderJob.findFirstOrThrow({ where: { accountId: principal.accountId } }), { timeout: 30_000, interval: 50 });
        await runRenderJob(worker(engine(async () => tinyPdf)), { jobId: queued.id });
        const { job, finished } = await answering;
        expect(finished).toBe(true);
        expect(job).toEqual(await jobRow(queued.id));
        expect(job).toMatchObject({ status: 'succeeded', reference: 'ref ✓', pageCount: 1 });
        expect(job.finishedAt).toBeInstanceOf(Date);
        const notice = await vi.waitFor(() => notices.find((payload) => payload.startsWith(queued.id)) ?? Promise.reject(new Error('no notice yet')), { timeout: 30_000, interval: 50 });
        if (footer.length < 100) expect(JSON.parse(notice.slice(queued.id.length + 1))).toMatchObject({ id: queued.id, status: 'succeeded' });
        else expect(notice).toBe(queued.id);
      }
    } finally {
      await listener.close();
    }
  });

  it('wakes the workers as it records a job: the single slots for a render, the bulk slots for unbilled work', async () => {
    const { notices, listener } = await noticesOn(renderQueuedChannel);
    try {
      const { accountId } = await queuedJob();
      await vi.waitFor(() => expect(notices).toEqual(['single']), { timeout: 10_000, interval: 50 });
      const output = { type: 'image', format: 'png', width: 20, height: 10 } as const;
      await createPreviewJob(ctx, { accountId, keyId: null, html: '<p>preview</p>', output, queue: true });
      await vi.waitFor(() => expect(notices).toEqual(['single', 'bulk']), { timeout: 10_000, interval: 50 });
    } finally {
      await listener.close();
    }
  });

  it('carries every column of a job in its record, and turns every time column of a notice back into a time', async () => {
    const columns = await ctx.db.$queryRaw<{ column_name: string; data_type: string }[]>`
      SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'render_jobs'`;
    const described = (column: string, time: boolean) => `${column}${time ? ' (time)' : ''}`;
    expect(new Set(renderJobColumns.map(({ column, time }) => described(column, time)))).toEqual(
      new Set(columns.map((column) => described(column.column_name, column.data_type.startsWith('timestamp')))),
    );
  });
});

describe('claim and lease', () => {
  it('lets one worker render a job; a second claim while the lease holds finds nothing to do', async () => {
    const { job } = await queuedJob();
    const first = heldEngine();
    const running = runRenderJob(worker(first.engine), { jobId: job.id });
    await first.started;
    expect(await jobRow(job.id)).toMatchObject({ status: 'running', attempts: 1 });

    // a second delivery of the task, a moment before the lease ends
    advance(ctx.config.renderLeaseMs - 1000);
    const second = engine(async () => tinyPdf);
    await runRenderJob(worker(second), { jobId: job.id });
    expect(second.calls).toBe(0);
    expect(await jobRow(job.id)).toMatchObject({ status: 'running', attempts: 1 });

    first.release();
    await running;
    expect(await jobRow(job.id)).toMatchObject({ status: 'succeeded', attempts: 1, credit: 'settled' });
    // delivered again after it ended: still nothing to do
    await runRenderJob(worker(second), { jobId: job.id });
    expect(second.calls).toBe(0);
  });

  it('hands a job whose lease ran out to the next claimer; the stale claimer cannot finish it and its file goes', async () => {
    const { job, accountId } = await queuedJob();
    const stale = heldEngine();
    const staleRun = runRenderJob(worker(stale.engine), { jobId: job.id });
    await stale.started;

    advance(ctx.config.renderLeaseMs + 1000);
    const taker = engine(async () => tinyPdf);
    await runRenderJob(worker(taker), { jobId: job.id });
    const taken = await jobRow(job.id);
    expect(taken).toMatchObject({ status: 'succeeded', attempts: 2, credit: 'settled', storageKey: `${accountId}/${job.id}-2.pdf` });

    // the first worker comes back from its render after the job was finished by another
    stale.release();
    await staleRun;
    expect(await jobRow(job.id)).toEqual(taken);
    expect(await ctx.storage.exists(`${accountId}/${job.id}-1.pdf`)).toBe(false);
    expect(await ctx.storage.exists(`${accountId}/${job.id}-2.pdf`)).toBe(true);
    expect(await ledger(job.id)).toEqual(['reserve', 'settle']);
    expect(await trialBalance(accountId)).toBe(2);
    expect(await events(job.id)).toEqual(['render.succeeded']);
  });
});

describe('failure', () => {
  it('fails the job with the renderer category and code and gives the credit back, once', async () => {
    const { job, accountId } = await queuedJob();
    const failing = engine(async () => {
      throw new RenderError('timeout', 'render_timeout');
    });
    await runRenderJob(worker(failing), { jobId: job.id });
    await runRenderJob(worker(failing), { jobId: job.id });
    expect(failing.calls).toBe(1);
    expect(await jobRow(job.id)).toMatchObject({ status: 'failed', errorCategory: 'timeout', errorCode: 'render_timeout', credit: 'released' });
    expect(await ledger(job.id)).toEqual(['reserve', 'release']);
    expect(await trialBalance(accountId)).toBe(3);
    expect(await events(job.id)).toEqual(['render.failed']);
  });

  it('leaves a job to recovery when the process itself fails, and fails it as attempts_exhausted after the last attempt', async () => {
    const { job, accountId } = await queuedJob();
    const broken = engine(async () => {
      throw new Error('worker lost its browser pipe');
    });
    for (let attempt = 1; attempt <= ctx.config.maxRenderAttempts; attempt += 1) {
      await expect(runRenderJob(worker(broken), { jobId: job.id })).rejects.toThrow('browser pipe');
      // the credit stays reserved while the job waits for another try
      expect(await jobRow(job.id)).toMatchObject({ status: 'running', attempts: attempt, credit: 'reserved' });
      advance(ctx.config.renderLeaseMs + 1000);
    }
    await runRenderJob(worker(broken), { jobId: job.id });
    expect(broken.calls).toBe(ctx.config.maxRenderAttempts);
    expect(await jobRow(job.id)).toMatchObject({ status: 'failed', errorCategory: 'internal_failure', errorCode: 'attempts_exhausted', credit: 'released' });
    expect(await ledger(job.id)).toEqual(['reserve', 'release']);
    expect(await trialBalance(accountId)).toBe(3);
  });
});

describe('recovery', () => {
  it('queues again only the running jobs whose lease ran out', async () => {
    const expired = await queuedJob();
    const leased = await queuedJob();
    const waiting = await queuedJob();
    const broken = engine(async () => {
      throw new Error('worker crashed');
    });
    await expect(runRenderJob(worker(broken), { jobId: expired.job.id })).rejects.toThrow();
    advance(ctx.config.renderLeaseMs + 1000);
    await expect(runRenderJob(worker(broken), { jobId: leased.job.id })).rejects.toThrow();
    // the claims took both off the queue
    const ours = [expired.job.id, leased.job.id, waiting.job.id];
    const queued = async () => (await ctx.db.renderQueueEntry.findMany({ where: { jobId: { in: ours } }, orderBy: { seq: 'asc' } })).map((entry) => entry.jobId);
    expect(await queued()).toEqual([waiting.job.id]);

    expect(await recoverStaleRenders(ctx)).toBe(1);
    expect(await queued()).toEqual([waiting.job.id, expired.job.id]);
    expect((await jobRow(waiting.job.id)).status).toBe('queued');

    // the recovered job renders on the next claim
    await runRenderJob(worker(engine(async () => tinyPdf)), { jobId: expired.job.id });
    expect(await jobRow(expired.job.id)).toMatchObject({ status: 'succeeded', attempts: 2, credit: 'settled' });
  });
});

describe('render queue', () => {
  /** Claims until the queue has nothing due for these slots; returns the ids claimed, in order. */
  async function claimAll(bulk: boolean): Promise<string[]> {
    const ids: string[] = [];
    for (;;) {
      const claim = await claimNextRender(ctx, { bulk });
      if (claim === 'empty') return ids;
      if (claim.job) ids.push(claim.job.id);
    }
  }

  it('gives each queued job to one of two concurrent claimers, oldest first, single and bulk apart', async () => {
    await claimAll(false);
    await claimAll(true);
    const singles = [await queuedJob(), await queuedJob(), await queuedJob(), await queuedJob()].map((each) => each.job.id);
    const member = await queuedJob();
    // as a group member's job: its entry waits for the bulk slots
    await ctx.db.renderQueueEntry.delete({ where: { jobId: member.job.id } });
    await queueRender(ctx.db, member.job.id, { bulk: true });

    const oldest = await claimNextRender(ctx, { bulk: false });
    expect(oldest).toMatchObject({ job: { id: singles[0] }, moreDue: true });
    const [first, second] = await Promise.all([claimAll(false), claimAll(false)]);
    first.unshift(singles[0]!);
    expect([...first, ...second].sort()).toEqual([...singles].sort());
    expect(first).toEqual(singles.filter((id) => first.includes(id)));
    expect(await claimAll(true)).toEqual([member.job.id]);
    for (const id of [...singles, member.job.id]) expect(await jobRow(id)).toMatchObject({ status: 'running', attempts: 1 });
  });

  it('takes a job handed back after its delay, as a new attempt; a stale claim cannot hand it back again', async () => {
    await claimAll(false);
    const { job } = await queuedJob();
    const claim = await claimNextRender(ctx, { bulk: false });
    if (claim === 'empty' || !claim.job) throw new Error('nothing claimed');
    const claimed = claim.job;
    // the only entry due: the slots need not ask again
    expect(claim.moreDue).toBe(false);
    await handBackRender(ctx, claimed, 1_000);
    expect(await jobRow(job.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await claimNextRender(ctx, { bulk: false })).toBe('empty');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = await claimNextRender(ctx, { bulk: false });
    expect(again).toMatchObject({ job: { id: job.id, attempts: 2, html: '<p>invoice</p>' }, moreDue: false });
    // the first claim's hand-back is fenced off: the job stays with the second
    await handBackRender(ctx, claimed, 0);
    expect(await jobRow(job.id)).toMatchObject({ status: 'running', attempts: 2 });
    expect(await claimNextRender(ctx, { bulk: false })).toBe('empty');
  });
});
