// One job's findings as the render goes: problems in the order found (the first of each kind
// and place only), fonts, script counts and the time of each stage. The render report is built
// from them (contracts' render-report.ts).
import { emptyFindings, isRenderError, maxReportEntries, type RenderFindings, type ReportFont, type ReportProblem } from '@svc/contracts';

type Stage = keyof RenderFindings['timing'];

/** A wait the document asked for, still running: what it means if the render times out during it. */
interface PendingWait {
  stage: Stage;
  started: number;
  onTimeout: ReportProblem;
}

export class FindingsCollector {
  readonly findings: RenderFindings = emptyFindings();
  readonly #seen = new Set<string>();
  /** Family names of the brand kit fonts the page loaded (their files' own names). */
  readonly brandFamilies = new Set<string>();
  #pendingWait: PendingWait | undefined;
  /** Work still adding findings after the capture was handed back (the report's look at the page). */
  #adding: Promise<void> = Promise.resolve();

  /** Adds a problem once (the same problem at the same place counts once); past the cap only counts it. */
  problem(problem: ReportProblem): void {
    const key = JSON.stringify(problem);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.findings.problems.length < maxReportEntries) this.findings.problems.push(problem);
    else this.findings.omitted += 1;
  }

  brandFont(family: string): void {
    this.brandFamilies.add(family);
  }

  fonts(fonts: readonly ReportFont[]): void {
    this.findings.fonts = fonts.slice(0, maxReportEntries);
  }

  /**
   * Findings still to come from `work`, which runs on while the caller goes on with the capture
   * (post-processing it). A failure of `work` fails the render at `complete()`.
   */
  addingFrom(work: Promise<unknown>): void {
    const adding = work.then(() => undefined);
    adding.catch(() => undefined);
    this.#adding = adding;
  }

  /** Resolves once every finding is in; rejects as the work that was adding them did. */
  complete(): Promise<void> {
    return this.#adding;
  }

  /** Records how long a stage took, measured elsewhere (in the page). */
  timed(stage: Stage, ms: number): void {
    this.findings.timing[stage] = Math.round(ms);
  }

  /** Runs one stage of the render and records how long it took, even when it throws. */
  async time<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.findings.timing[stage] = Math.round(performance.now() - started);
    }
  }

  /**
   * Runs a wait the document asked for (window.svcReady) as a timed stage. The job's deadline
   * rejects the render while the wait still runs, so the wait is remembered: a timeout error
   * attached meanwhile carries `onTimeout` and the time waited so far.
   */
  async wait<T>(stage: Stage, onTimeout: ReportProblem, work: () => Promise<T>): Promise<T> {
    const pending: PendingWait = { stage, started: performance.now(), onTimeout };
    this.#pendingWait = pending;
    try {
      return await this.time(stage, work);
    } finally {
      if (this.#pendingWait === pending) this.#pendingWait = undefined;
    }
  }

  /** Hands what was found so far to a render error, so a failed job has its report too. */
  attachTo(error: unknown): unknown {
    if (!isRenderError(error) || error.findings) return error;
    const pending = this.#pendingWait;
    if (pending && error.category === 'timeout') {
      this.problem(pending.onTimeout);
      this.findings.timing[pending.stage] = Math.round(performance.now() - pending.started);
    }
    error.findings = this.findings;
    return error;
  }
}
