// The render report: what the service saw while it rendered a job, kept with the job record and
// served at GET /v1/pdf/{id}/report and GET /v1/image/{id}/report. The renderer collects the
// findings (RenderFindings); core adds the job's own facts (queue wait, storage, the file).
import { z } from 'zod';
import { Timestamp } from './common.ts';
import { named } from './registry.ts';

/** Each list of the report holds at most this many entries; the rest are counted in `omitted`. */
export const maxReportEntries = 100;
/** Text quoted from the document (the context of a problem) is cut to this many characters, and says so. */
export const maxReportQuoteChars = 120;
/** A URL is quoted whole up to this many characters; longer ones are cut and marked. */
export const maxReportUrlChars = 2_048;

const Selector = z.string().max(1_000).meta({ description: 'A CSS selector for the element, from its id or its path of tag names and positions.' });
const Quote = z.string().max(maxReportQuoteChars + 1).meta({ description: `Text around the place, at most ${maxReportQuoteChars} characters; a cut quote ends with "…".` });
const Url = z.string().max(maxReportUrlChars + 1).meta({ description: 'The URL as the document wrote it (asset references in their asset:// form); a cut URL ends with "…".' });
const Pixels = z.number().min(0);

export const fontSources = ['document', 'brand_kit', 'system'] as const;

const ReportFont = z.strictObject({
  family: z.string().max(200).meta({ description: 'The family name as the font file names it.' }),
  face: z.string().max(200).meta({ description: 'The face: its PostScript name (for example NotoSansCJKjp-Bold).' }),
  source: z.enum(fontSources).meta({ description: 'document: a web font of the document; brand_kit: a font of the brand kit the template uses; system: installed on the service.' }),
  embedded: z.boolean().nullable().meta({ description: 'PDF only: whether the face is embedded in the file; null for images.' }),
  glyphs: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'About how many characters of the document this face drew (estimated from a sample of the text); null when the face was read from the printed PDF, which names its faces but does not count them.' }),
});

export const resourceBlockRules = ['network', 'local_file', 'websocket', 'worker', 'popup', 'navigation', 'resource_hint'] as const;
export const resourceFailures = ['asset_not_found', 'image_not_decoded', 'font_not_loaded'] as const;

const Problem = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('missing_glyph'),
      code_point: z.string().regex(/^U\+[0-9A-F]{4,6}$/),
      character: z.string().max(2),
      count: z.int().min(1),
      selector: Selector,
      context: Quote,
    })
    .meta({ description: 'A character no available font can draw (shown as an empty box), with the first place it occurs.' }),
  z
    .strictObject({
      type: z.literal('resource_blocked'),
      url: Url,
      rule: z.enum(resourceBlockRules),
      resource_type: z.string().max(40),
    })
    .meta({ description: 'A request the network policy refused: only data:, blob: and asset:// references load. A blocked request fails the render (unsafe_asset).' }),
  z
    .strictObject({
      type: z.literal('resource_failed'),
      url: Url,
      reason: z.enum(resourceFailures),
      resource_type: z.string().max(40),
    })
    .meta({ description: 'A resource that was allowed but did not arrive whole: an asset the account does not have, an image that did not decode, a font that did not load.' }),
  z
    .strictObject({
      type: z.literal('script_disabled'),
      script_elements: z.int().min(0),
      event_handlers: z.int().min(0),
    })
    .meta({ description: 'The document holds script (script elements or on* handlers) but javascript.mode was disabled, so none of it ran.' }),
  z
    .strictObject({
      type: z.literal('clipped_content'),
      selector: Selector,
      context: Quote,
      box: z.strictObject({ width: Pixels, height: Pixels }),
      content: z.strictObject({ width: Pixels, height: Pixels }),
    })
    .meta({ description: 'An element whose content is larger than its box while the box clips it (overflow hidden, clip, scroll or auto): text cut off.' }),
  z
    .strictObject({
      type: z.literal('wider_than_page'),
      selector: Selector,
      width: Pixels,
      page_width: Pixels,
    })
    .meta({ description: 'Content wider than the page (PDF) or the canvas (image), so part of it is outside the output.' }),
  z
    .strictObject({
      type: z.literal('text_fit_minimum'),
      selector: Selector,
      font_size: Pixels.meta({ description: 'The font size it ended at, in px: the minimum of data-svc-fit-min.' }),
    })
    .meta({ description: 'An element marked data-svc-fit="shrink" reached its minimum font size and its content still overflows its box.' }),
  z
    .strictObject({
      type: z.literal('invalid_code'),
      selector: Selector.nullable().meta({ description: 'The <svc-code> element (its id when unique, else its path of tag names and positions); null when the document as a whole is past a limit.' }),
      attribute: z.string().max(40).nullable().meta({ description: 'The attribute at fault (value, kind, size, height, ecc, quiet-zone, human-readable); for a payment payload, value and the field in parentheses.' }),
      message: z.string().max(300).meta({ description: 'Why it cannot be drawn, in the service\'s words: the rule, the expected check digit, the code point of a character the symbology cannot carry.' }),
    })
    .meta({ description: 'An <svc-code> element the service could not draw; the render fails with invalid_code.' }),
  z
    .strictObject({
      type: z.literal('ready_timeout'),
    })
    .meta({ description: 'The document set window.svcReady = false and did not set it to true before the render timeout.' }),
  z
    .strictObject({
      type: z.literal('unresolved_reference'),
      selector: Selector,
      target: Url.meta({ description: 'The reference as the element holds it (its href, say #chapter-9).' }),
    })
    .meta({ description: 'Paged media: an element whose target-counter() or target-text() names a target the document does not hold; its number prints as 0 and its text as nothing.' }),
  z
    .strictObject({
      type: z.literal('paged_feature_without_opt_in'),
      feature: z.string().max(40).meta({ description: 'The first such feature found in the HTML, for example string-set or target-counter().' }),
    })
    .meta({
      description:
        'A PDF whose HTML uses a feature only the paged layout provides (target-counter(), string-set, running(), float: footnote, leader() ...) but does not opt in with <meta name="svc-paged" content="on">, so Chromium ignores it.',
    }),
]);

export const ReportProblem = named('RenderReportProblem', Problem);
export type ReportProblem = z.infer<typeof Problem>;
export type ReportFont = z.infer<typeof ReportFont>;

/** Milliseconds of each stage, null when the render did not reach it. */
const Timing = z.strictObject({
  queue_wait_ms: z.int().min(0).nullable(),
  content_load_ms: z.int().min(0).nullable(),
  fonts_ready_ms: z.int().min(0).nullable(),
  ready_wait_ms: z.int().min(0).nullable().meta({ description: 'The wait for window.svcReady, when the document asked for one.' }),
  capture_ms: z.int().min(0).nullable().meta({ description: 'Printing the PDF or capturing the image.' }),
  post_process_ms: z.int().min(0).nullable(),
  storage_ms: z.int().min(0).nullable(),
});
export type ReportTiming = z.infer<typeof Timing>;

const Paged = z
  .strictObject({
    pages: z.int().min(0).meta({ description: "Pages printed: laid out by the paged-media engine, or by Chromium's printer where the document uses nothing only the engine does." }),
    footnotes: z.int().min(0).meta({ description: 'Footnotes placed at the foot of a page.' }),
    references: z.int().min(0).meta({ description: 'target-counter() and target-text() references resolved.' }),
    unresolved: z.int().min(0).meta({ description: 'References whose target is not in the document (each an unresolved_reference problem).' }),
  })
  .nullable()
  .meta({ description: 'What the paged layout did, for a PDF whose document opts in to paged media; null for any other render (absent from reports written before it was kept).' });
export type ReportPaged = NonNullable<z.infer<typeof Paged>>;

const Output = z
  .strictObject({
    media_type: z.string(),
    byte_size: z.int().min(0),
    pages: z.int().min(1).nullable().meta({ description: 'PDF only.' }),
    width: z.int().min(1).nullable().meta({ description: 'Image only, in pixels.' }),
    height: z.int().min(1).nullable().meta({ description: 'Image only, in pixels.' }),
  })
  .nullable();

export const RenderReport = named(
  'RenderReport',
  z.strictObject({
    object: z.literal('render_report'),
    id: z.string().meta({ description: 'The render job the report is about.' }),
    status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    created_at: Timestamp.nullable().meta({ description: 'When the report was written (the render ended); null while the job has not run.' }),
    output: Output,
    fonts: z.array(ReportFont).max(maxReportEntries),
    script: z.strictObject({
      mode: z.enum(['enabled', 'disabled']),
      script_elements: z.int().min(0),
      event_handlers: z.int().min(0),
    }),
    timing: Timing,
    paged: Paged.optional(),
    problems: z.array(Problem).max(maxReportEntries).meta({ description: 'Everything that may make the output differ from what the document meant; empty for a clean render.' }),
    omitted: z.int().min(0).meta({ description: `Problems past the first ${maxReportEntries} (fonts past ${maxReportEntries} are not counted).` }),
  }),
  'What the service saw while it rendered one job: fonts, problems, timing and the file.',
);
export type RenderReport = z.infer<typeof RenderReport>;

/**
 * What the renderer found in one job, success or failure: the part of the report that comes
 * from the browser. Core adds the job's own facts (queue wait, storage, the file) to make a RenderReport.
 */
export interface RenderFindings {
  fonts: ReportFont[];
  script: { script_elements: number; event_handlers: number };
  problems: ReportProblem[];
  omitted: number;
  /** what the paged layout did; null when the document was not laid out into pages */
  paged: ReportPaged | null;
  timing: Pick<ReportTiming, 'content_load_ms' | 'fonts_ready_ms' | 'ready_wait_ms' | 'capture_ms' | 'post_process_ms'>;
}

/** Findings of a render that found nothing (and the start of every collection). */
export function emptyFindings(): RenderFindings {
  return {
    fonts: [],
    script: { script_elements: 0, event_handlers: 0 },
    problems: [],
    omitted: 0,
    paged: null,
    timing: { content_load_ms: null, fonts_ready_ms: null, ready_wait_ms: null, capture_ms: null, post_process_ms: null },
  };
}
