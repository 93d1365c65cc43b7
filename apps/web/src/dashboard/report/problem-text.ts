// The render report's problems in words a customer understands: one line each, what happened
// and where. Characters no font could draw are told once, all together, since they usually come
// from one cause (a font without those characters).
import type { ReportProblem } from '@svc/contracts';

export interface ProblemLine {
  /** what happened, in a sentence */
  text: string;
  /** where: elements of the document (CSS selectors) */
  where: string | null;
  /** the URL the document asked for */
  url: string | null;
  /** the document's text around the place */
  context: string | null;
}

type Glyph = Extract<ReportProblem, { type: 'missing_glyph' }>;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const failures = {
  asset_not_found: 'An asset the document uses is not in your account',
  image_not_decoded: 'An image could not be read',
  font_not_loaded: 'A font did not load',
} as const;

const blocked = {
  network: 'on the network',
  local_file: 'from a file of the server',
  websocket: 'over a WebSocket',
  worker: 'as a worker',
  popup: 'in a new window',
  navigation: 'by leaving the page',
  resource_hint: 'ahead of time (a prefetch or preconnect hint)',
} as const;

const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

function glyphsLine(glyphs: Glyph[]): ProblemLine {
  const total = glyphs.reduce((sum, glyph) => sum + glyph.count, 0);
  const shown = glyphs.slice(0, 5).map((glyph) => glyph.code_point);
  const places = [...new Set(glyphs.map((glyph) => glyph.selector))];
  return {
    text: `${plural(total, 'character', 'characters')} could not be drawn (no font has ${total === 1 ? 'it' : 'them'}): ${shown.join(', ')}${glyphs.length > shown.length ? ' …' : ''}`,
    where: places.slice(0, 3).join(', ') + (places.length > 3 ? ' …' : ''),
    url: null,
    context: glyphs[0]?.context ?? null,
  };
}

function problemLine(problem: Exclude<ReportProblem, Glyph>): ProblemLine {
  switch (problem.type) {
    case 'resource_blocked':
      return {
        text: `Not loaded: the document asked for ${withArticle(problem.resource_type)} ${blocked[problem.rule]}, and only data:, blob: and asset:// references load`,
        where: null,
        url: problem.url,
        context: null,
      };
    case 'resource_failed':
      return { text: failures[problem.reason], where: null, url: problem.url, context: null };
    case 'script_disabled':
      return {
        text: `The document has script (${plural(problem.script_elements, 'script element', 'script elements')}, ${plural(problem.event_handlers, 'event handler', 'event handlers')}) but JavaScript was off, so none of it ran`,
        where: null,
        url: null,
        context: null,
      };
    case 'clipped_content':
      return {
        text: `Content is cut off: it needs ${Math.round(problem.content.width)}×${Math.round(problem.content.height)} px but its box is ${Math.round(problem.box.width)}×${Math.round(problem.box.height)} px`,
        where: problem.selector,
        url: null,
        context: problem.context,
      };
    case 'wider_than_page':
      return { text: `Content is ${Math.round(problem.width)} px wide, wider than the page (${Math.round(problem.page_width)} px): part of it is outside the file`, where: problem.selector, url: null, context: null };
    case 'text_fit_minimum':
      return { text: `Text shrank to its smallest size (${problem.font_size} px) and still does not fit its box`, where: problem.selector, url: null, context: null };
    case 'invalid_code':
      return { text: `A barcode could not be drawn: ${problem.attribute ? `${problem.attribute}: ` : ''}${problem.message}`, where: problem.selector, url: null, context: null };
    case 'ready_timeout':
      return { text: 'The document asked to be waited for (window.svcReady = false) and was not ready before the time limit', where: null, url: null, context: null };
    case 'unresolved_reference':
      return { text: `A page reference points at ${problem.target}, which the document does not hold: it prints as 0`, where: problem.selector, url: null, context: null };
    case 'paged_feature_without_opt_in':
      return { text: `The document uses ${problem.feature}, which only the paged layout provides: add <meta name="svc-paged" content="on"> to its head`, where: null, url: null, context: null };
  }
}

/** The report's problems as lines, characters that could not be drawn first. */
export function problemLines(problems: readonly ReportProblem[]): ProblemLine[] {
  const glyphs = problems.filter((problem): problem is Glyph => problem.type === 'missing_glyph');
  const others = problems.filter((problem): problem is Exclude<ReportProblem, Glyph> => problem.type !== 'missing_glyph');
  return [...(glyphs.length > 0 ? [glyphsLine(glyphs)] : []), ...others.map(problemLine)];
}
