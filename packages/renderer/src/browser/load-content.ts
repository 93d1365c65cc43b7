// Puts the untrusted HTML into the isolated page and waits until it is ready to capture.
import type { CDPSession, Page } from 'puppeteer-core';
import type { JavascriptMode } from '@svc/contracts';
import type { ReportProblem } from '@svc/contracts';
import type { FindingsCollector } from '../report/findings-collector.ts';
import { decodeImages, MAX_DECODED_IMAGES } from './decode-images.ts';
import { expandCodes, mayHoldCodes } from './expand-codes.ts';
import { FIT_TEXT, fitSettings, fitText } from './fit-text.ts';
import { mayOptInToPaged, noteFeatureWithoutOptIn, type PagedLayout, paginate } from './paged-media.ts';
import { callIsolated } from '../page/isolated-world.ts';
import { rewriteAssetReferences } from '../page/page-resource-policy.ts';
import { waitForReadySignal } from './ready-signal.ts';
import { READ_RESOURCE_HINTS, type ResourceHints } from './resource-hints.ts';

/**
 * A web font starts loading only once style and layout find text that uses it, which may be
 * after the load event; document.fonts.ready resolves at once if no load has started yet. So:
 * force layout, then wait until no font is loading any more (a font may reveal text that needs
 * another one). Plain source, not a function: see select-canvas-pages.ts.
 */
const SETTLE_FONTS = `(async () => {
  for (let round = 0; round < 10; round += 1) {
    document.documentElement && document.documentElement.getBoundingClientRect();
    // no requestAnimationFrame or timers here: with javascript disabled their callbacks never run
    await document.fonts.ready;
    if (document.fonts.status !== 'loading') return;
  }
})()`;

/**
 * Without script a document's CSS animations and transitions move with the clock alone, so a
 * capture would catch each wherever it happened to be (and a hidden page, see sandbox.ts,
 * never starts them): each is settled before the capture, a finite one at its end, an endless
 * one at its start. Those on another timeline (scroll-driven ones follow the scroll position,
 * which nothing changes) are left alone. Plain source, run with script off.
 */
const SETTLE_ANIMATIONS = `(() => {
  for (const animation of document.getAnimations()) {
    if (animation.timeline !== document.timeline) continue;
    try {
      if (Number.isFinite(animation.effect.getComputedTiming().endTime)) animation.finish();
      else {
        animation.pause();
        animation.currentTime = 0;
      }
    } catch {
      // one that cannot be settled is captured as it is
    }
  }
})()`;

/**
 * What follows the load of a document without script, in one evaluation in the isolated world
 * (one DevTools round trip where it was five): fonts settled, animations settled, images
 * decoded, text fitted, and the finished document's resource hints read for the sandbox's
 * audit (resource-hints.ts).
 * Only images whose load ended are decoded: with script off, nothing starts loading after the
 * load event, and an image that never started (loading="lazy" outside the viewport) would
 * never decode. And only in a shown page (an image's): a hidden one (a PDF's, see sandbox.ts)
 * may never have been drawn, and then has nothing to decode with (decode() never settles);
 * printing decodes every image it draws itself. Answers the time the fonts took, the
 * fitting's problems and the hints.
 */
const PREPARE_WITHOUT_SCRIPT = `(async ({ limit, fit }) => {
  const started = performance.now();
  await ${SETTLE_FONTS};
  const fontsMs = performance.now() - started;
  ${SETTLE_ANIMATIONS};
  const images = document.visibilityState === 'visible' ? [...document.images].filter((image) => image.complete).slice(0, limit) : [];
  await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
  const problems = (${FIT_TEXT})(fit);
  return { fontsMs, problems, hints: (${READ_RESOURCE_HINTS})() };
})`;

/** What a render (a job with a report) adds to loading: its script mode, its time limit, the sandbox's own DevTools session. */
export interface RenderJob {
  javascript: JavascriptMode;
  timeoutMs: number;
  session: CDPSession;
  /** What the capture will ask of the finished document, answered by the load's last evaluation when it makes one. */
  question?: PageQuestion;
}

/**
 * A question the capture asks of the finished document (a PDF's: does it ask for an outline,
 * once its @page fonts loaded): plain source of a function of no argument, run in the
 * isolated world; its name keys the compiled function there.
 */
export interface PageQuestion {
  name: string;
  source: string;
  /** the capture prints pages: a document that opts in to paged media (paged-media.ts) is laid out into them first, and the question asked after */
  paginates?: boolean;
}

/** The answer a load gives for a document that opts in to paged media: how it was laid out, and the answer to the capture's question when it asked it. */
export interface Paginated {
  paginated: PagedLayout;
  answer?: unknown;
}

/** The load's answer as a paginated document's, or undefined for any other document. */
export function asPaginated(answer: unknown): Paginated | undefined {
  const paginated = typeof answer === 'object' && answer !== null ? (answer as Partial<Paginated>).paginated : undefined;
  return typeof paginated === 'object' && paginated !== null && typeof paginated.engine === 'boolean' ? (answer as Paginated) : undefined;
}

/** What loading read of the finished document: its resource hints and the capture's answer, when its last evaluation read them. */
export interface Loaded {
  hints?: ResourceHints;
  answer?: unknown;
}

/**
 * Loads the HTML and waits for its fonts. For a render (`found` given): then for the document's
 * ready signal (script enabled only), <svc-code> elements drawn, decoded images, and text fitted
 * to its boxes, in that order, so that fitting measures the final content. Layout work without a report (canvas
 * adaptation, layout facts) measures the document as it was written. Answers what the last
 * evaluation read of the finished document, when it read it (a render without script): its
 * resource hints, and the answer to the capture's question.
 */
export async function loadContent(page: Page, html: string, found?: FindingsCollector, job?: RenderJob): Promise<Loaded> {
  // 'load' cannot hang on the sandbox: blocked requests fail at once. The job deadline, not
  // puppeteer's own timeout, bounds a page that never finishes loading.
  const load = () => page.setContent(rewriteAssetReferences(html), { waitUntil: 'load', timeout: 0 });
  const settleFonts = () => page.evaluate(SETTLE_FONTS);
  if (!found) {
    await load();
    await settleFonts();
    return {};
  }
  await found.time('content_load_ms', load);
  // a document that may opt in to paged media is laid out into pages once prepared, and the capture's question waits for that
  const mayPaginate = job?.question?.paginates === true && mayOptInToPaged(html);
  if (job?.question?.paginates === true && !mayPaginate) noteFeatureWithoutOptIn(html, found);
  if (job?.javascript === 'disabled') {
    // <svc-code> elements are drawn before fonts, images and fitting, which then see the drawings
    if (mayHoldCodes(html)) await expandCodes(job.session, found);
    const question = mayPaginate ? undefined : job.question;
    const name = question ? `prepareWithoutScript:${question.name}` : 'prepareWithoutScript';
    // the capture's question goes with the preparation: with script off the document does not change after it
    const source = question ? `(async (argument) => ({ ...(await (${PREPARE_WITHOUT_SCRIPT})(argument)), answer: await (${question.source})() }))` : PREPARE_WITHOUT_SCRIPT;
    const prepared = (await callIsolated(job.session, name, source, { limit: MAX_DECODED_IMAGES, fit: fitSettings })) as {
      fontsMs: number;
      problems: ReportProblem[];
      hints: ResourceHints;
      answer?: unknown;
    };
    found.timed('fonts_ready_ms', prepared.fontsMs);
    for (const problem of prepared.problems) found.problem(problem);
    if (!mayPaginate) return { hints: prepared.hints, answer: prepared.answer };
    const paginated = await paginate(job.session, html, found);
    const answer = job.question ? await callIsolated(job.session, job.question.name, job.question.source, null) : undefined;
    return { hints: prepared.hints, answer: paginated === undefined ? answer : ({ paginated, answer } satisfies Paginated) };
  }
  await found.time('fonts_ready_ms', settleFonts);
  if (!job) return {};
  // what the document drew once ready may use fonts that had not started loading before
  if (job.javascript === 'enabled' && (await waitForReadySignal(page, found, job.timeoutMs))) await settleFonts();
  if (mayHoldCodes(html)) await expandCodes(job.session, found);
  await decodeImages(job.session);
  await fitText(job.session, found);
  const paginated = mayPaginate ? await paginate(job.session, html, found) : undefined;
  return paginated === undefined ? {} : { answer: { paginated } satisfies Paginated };
}
