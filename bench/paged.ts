// The paged-media cell: documents that opt in with <meta name="svc-paged" content="on"> are laid
// out into pages by Paged.js before printing. Two documents, each rendered through the service
// with the opt-in and without it, one request at a time, in turns: the 37-page book of the
// renderer's tests (contents with target-counter, running heads, footnotes, right-hand chapter
// starts), whose opted-in render's median is held against its plain print's (target: at most
// 2x); and the one-page invoice of the fixture cells, whose opted-in median is held against its
// plain one's (target: at most 30 ms more). The opted-in invoice uses nothing only the engine
// does, so Chromium's printer lays it out; the same invoice with a running head (string-set),
// which the engine lays out, is measured beside it and printed without a target.
import { execFileSync } from 'node:child_process';
import { pagedBook } from '../packages/renderer/test/support/paged-book.ts';
import { invoiceHtml } from './fixtures.ts';
import { formatParts, perRender } from './processes.ts';
import { percentile } from './stats.ts';

/** Renders of the book per side (BENCH_PAGED_RUNS, default 9): an opted-in book takes seconds. */
const bookRuns = Number(process.env.BENCH_PAGED_RUNS ?? 9);
/** Renders of the invoice per side (BENCH_PAGED_INVOICE_RUNS, default 60). */
const invoiceRuns = Number(process.env.BENCH_PAGED_INVOICE_RUNS ?? 60);
const turn = Number(process.env.BENCH_TURN ?? 15);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
/** Pause between turns, for the previous turn's stragglers (a file written out, a document torn down). */
const pauseMs = 200;

const optIn = '<meta name="svc-paged" content="on">';

/** The targets: the opted-in book at most this many times its plain print, the opted-in invoice at most this many ms more. */
export const pagedTargets = { bookRatio: 2, invoiceExtraMs: 30 };

export interface PagedResult {
  bookPagedMs: number;
  bookPlainMs: number;
  invoicePagedMs: number;
  invoicePlainMs: number;
  /** The invoice opted in with a running head: laid out by the engine. */
  invoiceEngineMs: number;
  /** The book's page count opted in (Paged.js's pages), as read from one of its PDFs. */
  bookPages: number;
  /** Renders that did not succeed (one past the render deadline on a slow machine): left out of the medians, and the targets are then not met. */
  failures: number;
}

interface Side {
  name: string;
  html: string;
}

interface SideResult {
  times: number[];
  failures: number;
  spent: Record<string, number>;
}

async function render(baseUrl: string, apiKey: string, html: string): Promise<{ ok: boolean; body: any }> {
  const response = await fetch(`${baseUrl}/v1/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ html }),
  });
  const body = (await response.json()) as any;
  return { ok: response.status === 200 && body.status === 'succeeded', body };
}

/** The page count of a succeeded job's PDF, read by pdfinfo: the book is 37 pages laid out by Paged.js, 32 printed plain. */
async function pageCount(job: any): Promise<number> {
  const bytes = Buffer.from(await (await fetch(job.download.url)).arrayBuffer());
  const info = execFileSync('pdfinfo', ['-'], { input: bytes }).toString();
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? Number.NaN);
}

/**
 * Renders each side `total` times at concurrency 1, in turns of `perTurn` (A B A B ...), so that
 * a change of the machine's speed moves both sides alike; each render's wall time from request to
 * answer, and the CPU each part of the service spent during the side's turns.
 */
async function inTurns(send: (html: string) => Promise<boolean>, sides: Side[], total: number, perTurn: number, cpu: () => Record<string, number>): Promise<SideResult[]> {
  const results = sides.map(() => ({ times: [] as number[], failures: 0, spent: {} as Record<string, number>, done: 0 }));
  while (results.some((result) => result.done < total)) {
    for (const [index, side] of sides.entries()) {
      const result = results[index]!;
      const calls = Math.min(perTurn, total - result.done);
      if (calls === 0) continue;
      const before = cpu();
      for (let call = 0; call < calls; call++) {
        const started = performance.now();
        if (await send(side.html)) result.times.push(performance.now() - started);
        else result.failures++;
      }
      const after = cpu();
      for (const [part, value] of Object.entries(after)) result.spent[part] = (result.spent[part] ?? 0) + value - (before[part] ?? 0);
      result.done += calls;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return results.map(({ times, failures, spent }) => ({ times: times.sort((a, b) => a - b), failures, spent }));
}

const median = (result: SideResult) => percentile(result.times, 0.5);

/** `cpu`: the CPU each part of the service has spent so far (ms). Uses the account of `apiKeys`, one request at a time over its keys. */
export async function pagedCell(baseUrl: string, apiKeys: string[], cpu: () => Record<string, number>): Promise<PagedResult> {
  let next = 0;
  const send = async (html: string) => (await render(baseUrl, apiKeys[next++ % apiKeys.length]!, html)).ok;
  const book: Side[] = [
    { name: 'opted in', html: pagedBook({ optIn: true }).html },
    { name: 'plain', html: pagedBook({ optIn: false }).html },
  ];
  const runningHead = '<style>h1 { string-set: heading content(text); } @page { @top-right { content: string(heading); } }</style>';
  const invoice: Side[] = [
    { name: 'opted in', html: invoiceHtml.replace('<head>', `<head>${optIn}`) },
    { name: 'plain', html: invoiceHtml },
    { name: 'opted in, running head', html: invoiceHtml.replace('<head>', `<head>${optIn}${runningHead}`) },
  ];
  if (!invoice[0]!.html.includes(optIn)) throw new Error('the invoice fixture has no <head> to hold the opt-in');

  // warm-up: the first opted-in document in a sandbox loads the engine; the book's pages are
  // counted once, so a run where the opt-in did not lay the book out shows it
  const pages: number[] = [];
  for (const side of book) {
    for (let index = 0; index < Math.min(warmup, 2); index++) await send(side.html);
    const job = await render(baseUrl, apiKeys[0]!, side.html);
    if (!job.ok) throw new Error(`paged book render failed: ${JSON.stringify(job.body)}`);
    pages.push(await pageCount(job.body));
  }
  for (const side of invoice) for (let index = 0; index < warmup; index++) await send(side.html);

  const [bookPaged, bookPlain] = await inTurns(send, book, bookRuns, 1, cpu);
  const [invoicePaged, invoicePlain, invoiceEngine] = await inTurns(send, invoice, invoiceRuns, turn, cpu);
  const result: PagedResult = {
    bookPagedMs: median(bookPaged!),
    bookPlainMs: median(bookPlain!),
    invoicePagedMs: median(invoicePaged!),
    invoicePlainMs: median(invoicePlain!),
    invoiceEngineMs: median(invoiceEngine!),
    bookPages: pages[0]!,
    failures: bookPaged!.failures + bookPlain!.failures + invoicePaged!.failures + invoicePlain!.failures + invoiceEngine!.failures,
  };
  const failed = (side: SideResult) => (side.failures > 0 ? ` (${side.failures} failed)` : '');
  const p95 = (side: SideResult) => percentile(side.times, 0.95).toFixed(0);
  const ratio = result.bookPagedMs / result.bookPlainMs;
  console.log(
    `paged media, the service at conc 1, wall time per render (ms), medians: book (${pages[0]} pages opted in, ${pages[1]} plain), ${bookRuns} renders each, one at a time in turns: ` +
      `opted in ${result.bookPagedMs.toFixed(0)} (p95 ${p95(bookPaged!)})${failed(bookPaged!)}, plain ${result.bookPlainMs.toFixed(0)} (p95 ${p95(bookPlain!)})${failed(bookPlain!)}; ` +
      `ratio ${ratio.toFixed(2)} (target <= ${pagedTargets.bookRatio}x)`,
  );
  const extra = result.invoicePagedMs - result.invoicePlainMs;
  console.log(
    `  invoice PDF (1 page), ${invoiceRuns} renders each in turns of ${turn}: opted in ${result.invoicePagedMs.toFixed(1)} (p95 ${p95(invoicePaged!)})${failed(invoicePaged!)}, ` +
      `plain ${result.invoicePlainMs.toFixed(1)} (p95 ${p95(invoicePlain!)})${failed(invoicePlain!)}; difference ${extra >= 0 ? '+' : ''}${extra.toFixed(1)} ms (target <= +${pagedTargets.invoiceExtraMs} ms); ` +
      `with a running head (the engine) ${result.invoiceEngineMs.toFixed(1)} (p95 ${p95(invoiceEngine!)})${failed(invoiceEngine!)}, +${(result.invoiceEngineMs - result.invoicePlainMs).toFixed(1)} ms`,
  );
  const perSide = (side: SideResult, renders: number) => formatParts(perRender({}, side.spent, renders), 1);
  console.log(`  CPU per render (ms): book opted in ${perSide(bookPaged!, bookRuns)}\n                      book plain     ${perSide(bookPlain!, bookRuns)}`);
  console.log(`                      invoice opted in ${perSide(invoicePaged!, invoiceRuns)}\n                      invoice plain    ${perSide(invoicePlain!, invoiceRuns)}`);
  console.log(`                      invoice, engine  ${perSide(invoiceEngine!, invoiceRuns)}`);
  return result;
}
