/**
 * The NOTIFY channel on which the transaction that ends a job (a render, an adapt request) names
 * its id; a render's notice may carry the finished row after it (`id {json}`).
 */
export const renderFinishedChannel = 'render_finished';

/**
 * Lets a request wait for a job to end. The web process has one, woken by the notice the
 * worker sends in the transaction that ends the job; `isFinished` backs it up.
 */
export interface CompletionWaiter {
  /**
   * Resolves when the job is announced finished or the time is up, whichever comes first: with
   * what the notice carried after the id (see renderFinishedChannel), or null.
   */
  wait(jobId: string, timeoutMs: number, isFinished: () => Promise<boolean>): Promise<string | null>;
  /**
   * Starts listening for a job's end before the job exists: made before the statement that
   * admits the job commits, the watch cannot miss the notice, so its wait asks the database
   * only if the notice may have been lost (the listening connection was down or dropped).
   */
  watch(jobId: string): Promise<CompletionWatch>;
  close(): Promise<void>;
}

export interface CompletionWatch {
  /** As CompletionWaiter.wait; then stops listening. */
  wait(timeoutMs: number, isFinished: () => Promise<boolean>): Promise<string | null>;
  /** Stops listening (the job was not admitted). */
  cancel(): void;
}
