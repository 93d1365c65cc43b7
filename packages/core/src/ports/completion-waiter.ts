import type { RenderJob } from '@svc/db';

/**
 * The NOTIFY channel on which the statement that ends a render job names its id; the notice
 * may carry the finished job after it (renders/render-job-store.ts, renderFinishedNotice).
 */
export const renderFinishedChannel = 'render_finished';

/** The NOTIFY channel on which a worker names an adapt request it answered. */
export const adaptAnsweredChannel = 'adapt_answered';

/**
 * Lets a request wait for a job to end, or for an adapt request's answer. The web process has
 * one, woken by the notice the worker sends in the transaction that ends the job; `isFinished`
 * backs it up.
 */
export interface CompletionWaiter {
  /**
   * Resolves when the job is announced finished or the time is up, whichever comes first: with
   * the finished job when its notice carried it, else null.
   */
  wait(jobId: string, timeoutMs: number, isFinished: () => Promise<boolean>): Promise<RenderJob | null>;
  /**
   * Starts listening for a job's end before the job exists: made before the statement that
   * admits the job commits, the watch cannot miss the notice, so its wait asks the database
   * only if the notice may have been lost (the listening connection was down or dropped).
   */
  watch(jobId: string): Promise<CompletionWatch>;
  /** Resolves when the adapt request is announced answered, `isAnswered` holds, or the time is up. */
  waitForAdapt(adaptId: string, timeoutMs: number, isAnswered: () => Promise<boolean>): Promise<void>;
  close(): Promise<void>;
}

export interface CompletionWatch {
  /** As CompletionWaiter.wait; then stops listening. */
  wait(timeoutMs: number, isFinished: () => Promise<boolean>): Promise<RenderJob | null>;
  /** Stops listening (the job was not admitted). */
  cancel(): void;
}
