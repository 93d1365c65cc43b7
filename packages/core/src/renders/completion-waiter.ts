import { withDeadline } from '@svc/deadline';
import { listen, type Listener } from '@svc/db';
import { adaptAnsweredChannel, type CompletionWaiter, type CompletionWatch, renderFinishedChannel } from '../ports/completion-waiter.ts';
import type { Logger } from '../shared/context.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { decodeRenderFinished } from './render-job-store.ts';

/** What a wait is woken with: the finished job its notice carried, or null. */
type Wake = (carried: RenderJobRecord | null) => void;

interface Watch {
  wait(timeoutMs: number, isFinished: () => Promise<boolean>, askFirst?: boolean): Promise<RenderJobRecord | null>;
  cancel(): void;
}

/**
 * The completion waiter on Postgres: one LISTEN connection per process (render ends and adapt
 * answers), woken by the NOTIFY that the worker sends in the transaction that ends the job, so
 * it works across machines.
 */
export class PgCompletionWaiter implements CompletionWaiter {
  private readonly listener: Listener;
  /** Waits by channel, then by id. */
  private readonly waiters = new Map<string, Map<string, Set<Wake>>>([
    [renderFinishedChannel, new Map()],
    [adaptAnsweredChannel, new Map()],
  ]);

  constructor(url: string, private readonly logger: Logger) {
    this.listener = listen({
      url,
      channels: [renderFinishedChannel, adaptAnsweredChannel],
      onNotice: (channel, payload) => {
        const { jobId, job } = channel === renderFinishedChannel ? decodeRenderFinished(payload) : { jobId: payload, job: null };
        for (const wake of this.waiters.get(channel)?.get(jobId) ?? []) wake(job);
      },
      onLost: (error) => this.logger.warn('completion listener lost its connection', { error: String(error ?? 'the server ended it') }),
    });
  }

  async wait(jobId: string, timeoutMs: number, isFinished: () => Promise<boolean>): Promise<RenderJobRecord | null> {
    // the job may have ended before this subscribed: asked once after subscribing
    return (await this.watch(jobId)).wait(timeoutMs, isFinished, true);
  }

  watch(jobId: string): Promise<CompletionWatch & Watch> {
    return this.watchOn(renderFinishedChannel, jobId);
  }

  async waitForAdapt(adaptId: string, timeoutMs: number, isAnswered: () => Promise<boolean>): Promise<void> {
    await (await this.watchOn(adaptAnsweredChannel, adaptId)).wait(timeoutMs, isAnswered, true);
  }

  private async watchOn(channel: string, id: string): Promise<Watch> {
    await this.listener.connect().catch((error: unknown) => this.logger.warn('completion listener unavailable', { error: String(error) }));
    // a watch made on the connection that still listens when it waits missed no notice
    const connection = this.listener.connection;
    let wake!: Wake;
    const woken = new Promise<RenderJobRecord | null>((resolve) => (wake = resolve));
    const byId = this.waiters.get(channel)!;
    const set = byId.get(id) ?? new Set();
    set.add(wake);
    byId.set(id, set);
    const stop = () => {
      set.delete(wake);
      if (set.size === 0 && byId.get(id) === set) byId.delete(id);
    };
    return {
      cancel: stop,
      wait: async (timeoutMs, isFinished, askFirst = false) => {
        // a monotonic deadline: how long a request waits is real time, whatever the service clock says
        const deadline = performance.now() + timeoutMs;
        try {
          const heardEverything = connection !== null && connection === this.listener.connection;
          if ((askFirst || !heardEverything) && (await isFinished())) return null;
          while (performance.now() < deadline) {
            // a slow poll backs up the notification in case the connection was lost
            const heard = await withDeadline(woken, Math.min(1000, deadline - performance.now()), () => 'timed out' as const);
            if (heard !== 'timed out') return heard;
            if (await isFinished()) return null;
          }
          return null;
        } finally {
          stop();
        }
      },
    };
  }

  async close(): Promise<void> {
    await this.listener.close();
  }
}
