import pg from 'pg';
import { type CompletionWaiter, type CompletionWatch, renderFinishedChannel } from '../ports/completion-waiter.ts';
import type { Logger } from '../shared/context.ts';

/**
 * The completion waiter on Postgres: one LISTEN connection per process, woken by the NOTIFY
 * that the worker sends in the transaction that ends the job, so it works across machines.
 */
export class PgCompletionWaiter implements CompletionWaiter {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  /** Counts the listening connections made; a watch made on one that is still the current one missed no notice. */
  private connection = 0;
  private readonly waiters = new Map<string, Set<(carried: string | null) => void>>();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  async wait(jobId: string, timeoutMs: number, isFinished: () => Promise<boolean>): Promise<string | null> {
    // the job may have ended before this subscribed: asked once after subscribing
    return (await this.watch(jobId)).wait(timeoutMs, isFinished, true);
  }

  async watch(jobId: string): Promise<CompletionWatch & { wait(timeoutMs: number, isFinished: () => Promise<boolean>, askFirst?: boolean): Promise<string | null> }> {
    await this.connect().catch((error: unknown) => this.logger.warn('completion listener unavailable', { error: String(error) }));
    const connection = this.client ? this.connection : null;
    let wake!: (carried: string | null) => void;
    const woken = new Promise<string | null>((resolve) => (wake = resolve));
    const set = this.waiters.get(jobId) ?? new Set();
    set.add(wake);
    this.waiters.set(jobId, set);
    const stop = () => {
      set.delete(wake);
      if (set.size === 0 && this.waiters.get(jobId) === set) this.waiters.delete(jobId);
    };
    return {
      cancel: stop,
      wait: async (timeoutMs, isFinished, askFirst = false) => {
        // a monotonic deadline: how long a request waits is real time, whatever the service clock says
        const deadline = performance.now() + timeoutMs;
        try {
          const heardEverything = connection !== null && this.client !== null && connection === this.connection;
          if ((askFirst || !heardEverything) && (await isFinished())) return null;
          while (performance.now() < deadline) {
            // a slow poll backs up the notification in case the connection was lost
            const slice = Math.min(1000, deadline - performance.now());
            const timedOut = Symbol('timed out');
            const heard = await Promise.race([woken, new Promise<typeof timedOut>((resolve) => setTimeout(resolve, slice, timedOut))]);
            if (heard !== timedOut) return heard;
            if (await isFinished()) return null;
          }
          return null;
        } finally {
          stop();
        }
      },
    };
  }

  private connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (message) => {
        const payload = message.payload ?? '';
        const space = payload.indexOf(' ');
        const jobId = space === -1 ? payload : payload.slice(0, space);
        for (const wake of this.waiters.get(jobId) ?? []) wake(space === -1 ? null : payload.slice(space + 1));
      });
      client.on('error', (error) => {
        this.logger.warn('completion listener lost its connection', { error: String(error) });
        if (this.client === client) this.client = null;
        client.end().catch(() => {});
      });
      // a connection that ends without an error (the server shut down) is no longer listening either
      client.on('end', () => {
        if (this.client === client) this.client = null;
      });
      await client.connect();
      await client.query(`LISTEN ${renderFinishedChannel}`);
      this.connection++;
      this.client = client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}
