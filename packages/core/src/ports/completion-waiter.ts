/** The NOTIFY channel on which the transaction that ends a job (a render, an adapt request) names its id. */
export const renderFinishedChannel = 'render_finished';

/**
 * Lets a request wait for a job to end. The web process has one, woken by the notice the
 * worker sends in the transaction that ends the job; `isFinished` backs it up.
 */
export interface CompletionWaiter {
  /** Resolves when the job is announced finished or the time is up, whichever comes first. */
  wait(jobId: string, timeoutMs: number, isFinished: () => Promise<boolean>): Promise<void>;
  close(): Promise<void>;
}
