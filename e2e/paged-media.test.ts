// Paged media through the service as it runs from its JavaScript builds: the worker finds
// Paged.js beside its bundle, and a document that opts in gets its table of contents' page
// numbers and running heads, read from the PDF's text page by page.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newAccount } from './support/api.ts';
import { renderOk } from './support/files.ts';

/** Each page's text, as pdftotext reads it. */
function pageTexts(pdf: Buffer): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'paged-e2e-'));
  try {
    writeFileSync(join(directory, 'book.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(directory, 'book.pdf'), '-']).toString().split('\f').slice(0, -1);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const chapters = ['Harbour', 'Lighthouse', 'Tides'];
const book = (optIn: boolean) => `<!doctype html><html><head>${optIn ? '<meta name="svc-paged" content="on">' : ''}<style>
  @page { size: A5; margin: 20mm 15mm; @top-center { content: string(chapter); } }
  h1 { string-set: chapter content(text); break-before: page; }
  nav a::after { content: " .... page " target-counter(attr(href), page); }
  p { font: 11pt/1.5 serif; }
</style></head><body>
<nav>${chapters.map((title, index) => `<p><a href="#c${index}">${title}</a></p>`).join('')}</nav>
${chapters.map((title, index) => `<h1 id="c${index}">${title}</h1>${Array.from({ length: 12 }, (_, n) => `<p>${title} paragraph ${n + 1}: the quay was quiet that morning and the gulls circled the boats waiting for the tide to turn.</p>`).join('')}`).join('')}
</body></html>`;

describe('paged media', () => {
  it('a document that opts in gets its contents page numbers and running heads; one that does not prints as before', async () => {
    const account = await newAccount();
    const { file } = await renderOk('pdf', account.apiKey, { html: book(true) });
    const pages = pageTexts(file.bytes);
    for (const [index, title] of chapters.entries()) {
      // the page the chapter's heading is really on, after the contents page
      const start = pages.findIndex((text, page) => page > 0 && new RegExp(`^\\s*${title}\\s*$`, 'm').test(text.split('\n').slice(1).join('\n'))) + 1;
      expect(start).toBeGreaterThan(1);
      expect(pages[0]).toMatch(new RegExp(`${title} \\.\\.\\.\\. page ${start}\\b`));
      // its first page carries its title as the running head
      expect(pages[start - 1]!.split('\n')[0]).toContain(title);
    }

    const plain = pageTexts((await renderOk('pdf', account.apiKey, { html: book(false) })).file.bytes);
    expect(plain[0]).not.toMatch(/page \d/);
  }, 120_000);
});
