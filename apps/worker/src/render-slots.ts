// The worker's render slots: it claims render jobs from the render queue itself (no task queue
// in between). One listening connection wakes the slots when admission queues a job; a poll
// each second backs it up (a lost notification, a job handed back to run a little later).
// Single renders and group members have slots of their own, so members waiting for the
// browser never hold a slot a single render needs (the browser pool then lets single renders
// go first, see packages/renderer/src/browser/slots.ts).
import { type ClaimedJob, claimNextRender, handBackRender, type Logger, renderClaimedJob, renderQueuedChannel, type ServiceContext, withLogFields } from '@svc/core';
import { listen } from '@svc/db';
import { withDeadline } from '@svc/deadline';

/**
 * Pause before a job handed back after its attempt `n` (an error outside the render itself:
 * storage, the database) is claimed again: 2 s, then 10 s, then 50 s, so an outage of ten
 * seconds or so costs a job one of its attempts, not all of them.
 */
const handBackDelayMs = (attempt: number) => 2_000 * 5 ** Math.max(0, attempt - 1);

/** Slots of one kind (single renders or group members): claims while a slot is free and a job is due. */
export class RenderSlots {
  readonly #running = new Map<string, { job: ClaimedJob; done: Promise<void> }>();
  #filling = false;
  #again = false;
  #stopped = false;
  /** The last claim found nothing due: a finished job then frees a slot without a claim (a wake-up claims again). */
  #drained = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: { bulk: boolean; slots: number },
  ) {}

  /**
   * A job may be due (queued, or the poll's tick): claims until the slots are full or nothing is
   * due; a nudge while claiming claims once more after.
   */
  nudge(): void {
    this.#drained = false;
    this.#claim();
  }

  #claim(): void {
    if (this.#stopped) return;
    if (this.#filling) {
      this.#again = true;
      return;
    }
    this.#filling = true;
    void this.#fill().finally(() => {
      this.#filling = false;
      if (this.#again) {
        this.#again = false;
        this.#claim();
      }
    });
  }

  async #fill(): Promise<void> {
    while (!this.#stopped && this.#running.size < this.options.slots) {
      const claim = await claimNextRender(this.ctx, { bulk: this.options.bulk }).catch((error: unknown) => {
        this.ctx.logger.warn('render claim failed', { error: String(error) });
        return 'empty' as const;
      });
      if (claim !== 'empty' && claim.job) this.#start(claim.job);
      if (claim === 'empty' || !claim.moreDue) {
        // unless a wake-up came meanwhile, which claims again after this
        if (!this.#again) this.#drained = true;
        return;
      }
    }
  }

  #start(job: ClaimedJob): void {
    // every line about the job, the renderer's included, carries its id: the job's context has
    // a logger of its own (withLogFields; no log scope, whose promise hooks would slow every render)
    const ctx = { ...this.ctx, logger: withLogFields(this.ctx.logger, { jobId: job.id }) };
    const done = this.#render(ctx, job).finally(() => {
      this.#running.delete(job.id);
      // the freed slot takes the next job, if the queue may still hold one
      if (!this.#drained) this.#claim();
    });
    this.#running.set(job.id, { job, done });
  }

  async #render(ctx: ServiceContext, job: ClaimedJob): Promise<void> {
    const started = performance.now();
    ctx.logger.info('render job started', { attempt: job.attempts, bulk: this.options.bulk });
    try {
      await renderClaimedJob(ctx, job);
      ctx.logger.info('render job ended', { durationMs: Math.round(performance.now() - started) });
    } catch (error) {
      ctx.logger.error('render job interrupted; handed back to the queue', { error: error instanceof Error ? error.message : String(error) });
      await handBackRender(ctx, job, handBackDelayMs(job.attempts)).catch(() => {});
    }
  }

  /** Takes no more jobs; running ones get until `boundMs`, then what still runs goes back to the queue. */
  async stop(boundMs: number): Promise<void> {
    this.#stopped = true;
    const finished = await withDeadline(Promise.all([...this.#running.values()].map((each) => each.done)), boundMs, () => 'bound' as const);
    if (finished !== 'bound') return;
    this.ctx.logger.warn('renders still running at shutdown are handed back', { count: this.#running.size, afterMs: boundMs });
    await Promise.all([...this.#running.values()].map((each) => handBackRender(this.ctx, each.job, 0).catch(() => {})));
  }
}

/**
 * Wakes the slots: LISTEN on the render queue's channel (the payload names single or bulk),
 * and a poll each second. Resolves once listening.
 */
export async function wakeRenderSlots(
  url: string,
  applicationName: string,
  slots: { single: RenderSlots; bulk: RenderSlots },
  logger: Logger,
): Promise<{ listening: () => boolean; close: () => Promise<void> }> {
  const nudgeAll = () => {
    slots.single.nudge();
    slots.bulk.nudge();
  };
  const listener = listen({
    url,
    applicationName,
    channels: [renderQueuedChannel],
    onNotice: (_channel, payload) => (payload === 'bulk' ? slots.bulk : slots.single).nudge(),
    onLost: (error) => logger.warn('render queue listener lost its connection', { error: error?.message ?? 'the server ended it' }),
  });
  await listener.connect();
  const poll = setInterval(() => {
    nudgeAll();
    // a lost listener comes back at the next poll
    listener.connect().catch((error: unknown) => logger.warn('render queue listener unavailable', { error: String(error) }));
  }, 1000);
  nudgeAll();
  return {
    /** Whether the LISTEN connection is up (a lost one comes back at the next poll). */
    listening: () => listener.connection !== null,
    close: async () => {
      clearInterval(poll);
      await listener.close();
    },
  };
}
