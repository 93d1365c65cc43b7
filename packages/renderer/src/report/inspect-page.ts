// The report's look at the loaded page, beside and after the capture: script it holds, layout
// problems, characters no font draws, resources that did not arrive whole, and the fonts it
// uses. One evaluation beside the capture does most of it; the rest runs only when there is
// something to look at.
import type { CDPSession } from 'puppeteer-core';
import { type JavascriptMode, maxReportQuoteChars, type ReportFont, ReportProblem } from '@svc/contracts';
import { callIsolated } from '../page/isolated-world.ts';
import { hasUnnamedFaces, latin1, reportPrintedFaces } from './embedded-fonts.ts';
import type { FindingsCollector } from './findings-collector.ts';
import { reportUrl } from './blocked-requests.ts';
import { INSPECT_PAGE, LOCATE_MISSING_GLYPHS } from './page-scripts.ts';
import { printedFit } from './printed-scale.ts';
import { type CodePointRanges, systemGlyphCoverage } from './system-glyphs.ts';

export interface PageInspection {
  javascript: JavascriptMode;
  /** CSS pixels the content must fit in: a PDF's printable width, an image's width */
  pageWidth: number;
  /**
   * Lay the document's root out at pageWidth while measuring: a PDF is printed at its
   * printable width, not at the width of its viewport.
   */
  fitRoot: boolean;
  /** pdf.scale of a PDF (1 for an image): the printed file's content scale is read against it */
  scale: number;
  /**
   * Where the fonts list comes from: the page (DevTools' platform fonts of sampled elements) or
   * the printed file, which names each face it embeds (see embedded-fonts.ts). A PDF takes the
   * file: asking the page costs a fast render more than everything else in the look.
   */
  fonts: 'page' | 'printed';
  /**
   * A PDF printed with its header and footer templates: they draw text outside the page's
   * elements, as page-margin boxes do, so the printed file says which faces drew it.
   */
  headerFooter?: boolean;
}

/** One element per distinct font style of the page's text, and how much text it stands for. */
interface FontSamples {
  samples: { selector: string; chars: number }[];
  /** all text characters over the sampled ones */
  scale: number;
  /** whether the document loaded fonts of its own (web fonts, brand kit fonts) */
  webFonts: boolean;
  /** whether its @page rules have margin boxes, which the printer draws and no element stands for */
  marginBoxes: boolean;
}

/** Bounds of the work, whatever the document's length. */
const limits = {
  /** elements looked at for clipping and width */
  maxElements: 5_000,
  /** a PDF's root is laid out at the printable width (a relayout) only up to this many elements */
  maxFitElements: 5_000,
  /** entries of each kind of problem */
  maxEntries: 20,
  /** characters of text read for glyphs (and looked through for their first place) */
  maxTextChars: 2_000_000,
  /** text nodes whose style is read for the fonts list */
  maxStyledNodes: 500,
  /** distinct font styles sampled for the fonts list */
  maxSamples: 40,
  /** characters no system font covers that are looked up in the page */
  maxCandidates: 200,
};

/** How far below its own scale a printed file counts as shrunk (the file's numbers are rounded). */
const FIT_TOLERANCE = 1e-4;

/** A character no font has (the last private-use code point): what a font draws for a missing glyph. */
const NO_GLYPH = '\u{10FFFD}';

interface Inspected {
  scriptElements: number;
  eventHandlers: number;
  /** elements that can clip their content, by the style sheets; -1: unknown (every element is measured) */
  clipCandidates: number;
  clipped: { selector: string; context: string; box: { width: number; height: number }; content: { width: number; height: number } }[];
  wide: { selector: string; width: number; page_width: number }[];
  characters: string;
  samples: { selector: string; chars: number }[];
  textChars: number;
  sampledChars: number;
  images: string[];
  fonts: string[];
  /** web fonts the document loaded */
  webFonts: number;
  /** whether an @page rule has margin boxes (asked with samples of a PDF's fonts) */
  marginBoxes: boolean;
}

/** The layout's findings and the fonts' samples, from whichever look took them. */
type Sampled = Pick<Inspected, 'clipped' | 'wide' | 'samples' | 'sampledChars' | 'marginBoxes'>;

interface MissingGlyph {
  character: string;
  count: number;
  selector: string;
  context: string;
}

/**
 * The report's look at the loaded page, in the service's isolated world (out of reach of the
 * document's script), in two steps. `lookAtContent` is sent as the capture starts and runs
 * beside it: it changes nothing in the page (script, characters, images, fonts that failed,
 * and for an image its layout, measured at the size it is captured at). `finishLook` follows
 * the capture: a PDF's layout needs the printed file (was anything shrunk to fit the page?)
 * and a relayout at the printable width, so it is measured then, and only when there is
 * something to measure. A look that fails (the page gone) leaves the report without what it
 * would have found; it never fails the render.
 */
export function lookAtContent(session: CDPSession, inspection: PageInspection): Promise<Inspected | null> {
  const image = !inspection.fitRoot;
  const look = { fitRootTo: null, content: true, layout: image, checkWidth: image, sampleFonts: inspection.fonts === 'page', marginBoxes: inspection.fonts === 'printed' };
  return inspectPage(session, inspection, look).catch(() => null);
}

/** One call of INSPECT_PAGE with the parts of the look `look` chooses (see page-scripts.ts). */
function inspectPage(
  session: CDPSession,
  inspection: PageInspection,
  look: { fitRootTo: number | null; content: boolean; layout: boolean; checkWidth: boolean; sampleFonts: boolean; marginBoxes: boolean },
): Promise<Inspected> {
  const options = { ...limits, quoteChars: maxReportQuoteChars, pageWidth: inspection.pageWidth, ...look };
  return callIsolated(session, 'inspectPage', INSPECT_PAGE, options) as Promise<Inspected>;
}

/** Completes the look begun by lookAtContent once the capture is made, and adds what both found to the findings. */
export async function finishLook(session: CDPSession, found: FindingsCollector, inspection: PageInspection, content: Promise<Inspected | null>, captured: unknown): Promise<void> {
  try {
    const seen = await content;
    if (!seen) return;
    let layout: Sampled = seen;
    const printed = inspection.fitRoot && captured instanceof Uint8Array ? { bytes: Buffer.from(captured.buffer, captured.byteOffset, captured.byteLength), text: latin1(captured) } : null;
    if (printed) {
      // Chromium shrinks a document wider than the page to fit: a file drawn at its own scale
      // had nothing past the printable width, and no element's width needs measuring
      const fit = printedFit(printed.bytes, printed.text, inspection.scale);
      const checkWidth = fit === null || fit < 1 - FIT_TOLERANCE;
      // faces the file does not name are asked of the page, by samples the content look took only for web fonts
      const sampleFonts = hasUnnamedFaces(printed.text) && seen.samples.length === 0;
      const measure = checkWidth || seen.clipCandidates !== 0;
      layout = { clipped: [], wide: [], samples: seen.samples, sampledChars: seen.sampledChars, marginBoxes: seen.marginBoxes };
      if (measure || sampleFonts) {
        const measured = await inspectPage(session, inspection, { fitRootTo: inspection.pageWidth, content: false, layout: measure, checkWidth, sampleFonts, marginBoxes: sampleFonts });
        const sampled = sampleFonts ? { samples: measured.samples, sampledChars: measured.sampledChars, marginBoxes: measured.marginBoxes } : {};
        layout = { ...layout, clipped: measured.clipped, wide: measured.wide, ...sampled };
      }
    }
    const samples = await addProblems(session, found, inspection, seen, layout);
    const askPage = () => fontsInUse(session, samples, found.brandFamilies);
    if (inspection.fonts === 'page') found.fonts(await askPage());
    else if (printed) await reportPrintedFaces(found, printed, samples, askPage);
  } catch {
    // nothing to add: the report keeps what was found before
  }
}

/** Adds the page's problems and script counts to the findings; answers its font samples for the fonts list. */
async function addProblems(
  session: CDPSession,
  found: FindingsCollector,
  inspection: PageInspection,
  seen: Inspected,
  layout: Sampled,
): Promise<FontSamples> {
  // the look runs in the service's isolated world, out of reach of the document's script; what
  // comes back from the page is still checked against the report's own schema before it is kept
  const add = (problem: unknown) => {
    const checked = ReportProblem.safeParse(problem);
    if (checked.success) found.problem(checked.data);
  };
  const count = (value: unknown) => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0);
  const script = { script_elements: count(seen.scriptElements), event_handlers: count(seen.eventHandlers) };
  found.findings.script = script;
  if (inspection.javascript === 'disabled' && (script.script_elements > 0 || script.event_handlers > 0)) add({ type: 'script_disabled', ...script });
  for (const clipped of layout.clipped) add({ type: 'clipped_content', ...clipped });
  for (const wide of layout.wide) add({ type: 'wider_than_page', ...wide });
  for (const url of seen.images) add({ type: 'resource_failed', url: reportUrl(String(url)), reason: 'image_not_decoded', resource_type: 'image' });
  for (const url of seen.fonts) add({ type: 'resource_failed', url: reportUrl(String(url)), reason: 'font_not_loaded', resource_type: 'font' });

  const candidates = uncovered(String(seen.characters), await systemGlyphCoverage());
  if (candidates.length > 0) {
    const locate = { ...limits, quoteChars: maxReportQuoteChars, characters: candidates, noGlyph: NO_GLYPH };
    const missing = (await callIsolated(session, 'locateMissingGlyphs', LOCATE_MISSING_GLYPHS, locate)) as MissingGlyph[];
    for (const glyph of missing) add({ type: 'missing_glyph', code_point: codePointName(String(glyph.character)), ...glyph });
  }

  const scale = count(layout.sampledChars) > 0 ? count(seen.textChars) / count(layout.sampledChars) : 1;
  return { samples: layout.samples, scale, webFonts: count(seen.webFonts) > 0, marginBoxes: layout.marginBoxes === true || inspection.headerFooter === true };
}

/** Characters that draw nothing by themselves (spaces, controls, format and variation characters) are never missing. */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}\p{Cs}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]$/u;

/** The distinct characters of the text that no system font covers (all of them when coverage is unknown). */
function uncovered(characters: string, coverage: CodePointRanges | null): string[] {
  const result: string[] = [];
  for (const character of characters) {
    if (INVISIBLE.test(character)) continue;
    if (coverage && covers(coverage, character.codePointAt(0)!)) continue;
    result.push(character);
    if (result.length >= limits.maxCandidates) break;
  }
  return result;
}

function covers(ranges: CodePointRanges, codePoint: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[middle * 2]!) high = middle - 1;
    else if (codePoint > ranges[middle * 2 + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

function codePointName(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

type PlatformFont = { familyName: string; postScriptName?: string; isCustomFont: boolean; glyphCount: number };

/**
 * The faces that drew the sampled elements (one per distinct font style), as Chromium reports
 * them: the face's own family and PostScript name, and whether it is a web font. A sample's
 * characters are shared among its faces in proportion to the glyphs each drew, and scaled up
 * to the whole text when only part of it was sampled. The CSS domain is on only meanwhile.
 */
async function fontsInUse(session: CDPSession, { samples, scale }: FontSamples, brandFamilies: ReadonlySet<string>): Promise<ReportFont[]> {
  if (samples.length === 0) return [];
  const faces = new Map<string, ReportFont & { glyphs: number }>();
  try {
    // DevTools answers a session's commands in order: sent together, they cost one round trip
    const [, , { root }] = await Promise.all([session.send('DOM.enable'), session.send('CSS.enable'), session.send('DOM.getDocument', { depth: 0 })]);
    const answers = await Promise.all(
      samples.map(async (sample) => {
        try {
          const { nodeId } = await session.send('DOM.querySelector', { nodeId: root.nodeId, selector: sample.selector });
          if (!nodeId) return null;
          const { fonts } = await session.send('CSS.getPlatformFontsForNode', { nodeId });
          return { fonts: fonts as PlatformFont[], chars: Number.isSafeInteger(sample.chars) ? sample.chars : 0 };
        } catch {
          return null; // the element is gone or its selector does not parse: one sample fewer
        }
      }),
    );
    for (const answer of answers) {
      if (!answer) continue;
      const drawn = answer.fonts.reduce((sum, font) => sum + font.glyphCount, 0);
      for (const font of answer.fonts) {
        if (font.glyphCount === 0) continue;
        const face = font.postScriptName || font.familyName;
        const glyphs = Math.max(1, Math.round((font.glyphCount / drawn) * answer.chars * scale));
        const known = faces.get(face);
        if (known) known.glyphs += glyphs;
        else faces.set(face, { family: font.familyName.slice(0, 200), face: face.slice(0, 200), source: sourceOf(font, brandFamilies), embedded: null, glyphs });
      }
    }
  } finally {
    // not awaited: commands that follow on the session (the capture) come after them anyway
    void Promise.all([session.send('CSS.disable'), session.send('DOM.disable')]).catch(() => undefined);
  }
  return [...faces.values()].sort((a, b) => b.glyphs - a.glyphs);
}

function sourceOf(font: PlatformFont, brandFamilies: ReadonlySet<string>): ReportFont['source'] {
  if (!font.isCustomFont) return 'system';
  return brandFamilies.has(font.familyName) ? 'brand_kit' : 'document';
}
