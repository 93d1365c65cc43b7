// What the isolation layers found during one job. The first finding fails the job at once (the
// render is raced against it) and wins over any error the interrupted render throws after it.
import { RenderError } from '@svc/contracts';
import type { FindingsCollector } from '../report/findings-collector.ts';
import { refusedRequestProblem } from '../report/blocked-requests.ts';
import type { RendererLogger } from '../types.ts';

export type ViolationCode = 'blocked_request' | 'unknown_asset';

/** Which layer of the sandbox caught the attempt (see isolation.ts, tripwire.ts). */
export type GuardLayer = 'interception' | 'observer' | 'target' | 'page_guard' | 'resource_hint' | 'tripwire';

/**
 * What was attempted, as a fixed category (a resource type, a target type, a hint's rel),
 * never the URL: a URL is the customer's content and may carry their data.
 */
export interface Finding {
  layer: GuardLayer;
  kind: string;
  /** The URL where the layer knows it: never logged, only quoted in the job's own render report. */
  url?: string;
  /** The request's resource type where kind names something else */
  resourceType?: string;
}

/** The collector of the job the sandbox is serving, set for the job's duration only. */
export type JobFindings = { current?: FindingsCollector };

export class Violations {
  #first: RenderError | null = null;
  readonly #sandboxLogger: RendererLogger;
  /** the current job's logger, or the sandbox's */
  #logger!: RendererLogger;
  readonly #found: JobFindings;
  #tripped!: Promise<never>;
  #trip!: (error: RenderError) => void;

  constructor(logger: RendererLogger, found: JobFindings = {}) {
    this.#sandboxLogger = logger;
    this.#found = found;
    this.renew();
  }

  /** Starts over for the next job of a reused sandbox: nothing found yet, its lines to `logger` (the job's) when given. */
  renew(logger?: RendererLogger): void {
    this.#logger = logger ?? this.#sandboxLogger;
    this.#first = null;
    this.#tripped = new Promise<never>((_, reject) => (this.#trip = reject));
    this.#tripped.catch(() => undefined); // observed through guard(); never unhandled
  }

  get first(): RenderError | null {
    return this.#first;
  }

  /** A sandbox breach attempt: the job fails as unsafe_asset. */
  record(code: ViolationCode, finding: Finding): void {
    // every refusal goes into the report (the first one fails the job; later ones are listed too)
    this.#found.current?.problem(refusedRequestProblem({ code, ...finding }));
    // the message reaches the worker's log with the job id, so it names the category only
    this.#stop(new RenderError('unsafe_asset', code, `sandbox refused: ${finding.kind} (${finding.layer})`), finding);
  }

  /** Any other reason the job must stop now (a failing asset resolver, say). */
  fail(error: RenderError): void {
    this.#stop(error, null);
  }

  #stop(error: RenderError, finding: Finding | null): void {
    // a page can make thousands of attempts; the first one decides the job and is the one logged
    if (this.#first) return;
    this.#first = error;
    if (finding) this.#logger.warn('network guard tripped', { code: error.code, layer: finding.layer, kind: finding.kind });
    else this.#logger.warn('sandbox stopped the render', { category: error.category, code: error.code });
    this.#trip(error);
  }

  /** Runs work, stopping at the first violation; a violation outranks the work's own error. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    running.catch(() => undefined); // when a violation wins, the abandoned work may still reject
    let result: T;
    try {
      result = await Promise.race([running, this.#tripped]);
    } catch (error) {
      throw this.#first ?? error;
    }
    if (this.#first) throw this.#first;
    return result;
  }
}
