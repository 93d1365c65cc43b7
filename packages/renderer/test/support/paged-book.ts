// A deterministic book that asks for paged media (css-page-3, css-gcpm-3): cover, contents with
// target-counter, six chapters with running heads (string-set, running elements), footnotes,
// cross-references (target-counter, target-text), right-hand chapter starts, named pages. And
// the checks a reader would make of its PDF, page by page, with pdftotext.
import { execFileSync } from 'node:child_process';

export interface BookManifest {
  titles: string[];
  paragraphs: string[];
  footnotes: { number: number; text: string; before: string }[];
  references: { label: string; target: string }[];
}

const WORDS = (
  'the of and a to in is was that for it with as his on be at by this had not are but from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'
).split(' ');

const TITLES = ['Foundations of the Harbour', 'The Northern Survey', 'Rivers and Roads', 'A Winter of Ledgers', 'The Long Correspondence', 'Afterword on Method'];
export const BOOK_TITLE = 'Harbour Records — study edition';

/** The book's HTML (with or without the opt-in) and what its PDF must show. */
export function pagedBook({ optIn = true, paragraphsPerChapter = 32 }: { optIn?: boolean; paragraphsPerChapter?: number } = {}): { html: string; manifest: BookManifest } {
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
    const text = words.join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = (sentences: number) => Array.from({ length: sentences }, sentence).join(' ');
  const manifest: BookManifest = { titles: TITLES, paragraphs: [], footnotes: [], references: [] };
  let footnote = 0;
  const chapters = TITLES.map((title, index) => {
    const chapter = index + 1;
    let body = '';
    for (let p = 0; p < paragraphsPerChapter; p += 1) {
      if (p === 8) body += `<h2 id="s${chapter}-1">Section ${chapter}.1: On the record</h2>\n`;
      if (p === 18) body += `<h2 id="s${chapter}-2">Section ${chapter}.2: On the method</h2>\n`;
      let text = paragraph(7);
      if (p === 3 || p === 14) {
        footnote += 1;
        const note = `Footnote ${footnote}: ${sentence()}`;
        const before = text.slice(0, text.indexOf('. ') + 1).split(' ').slice(-3).join(' ');
        manifest.footnotes.push({ number: footnote, text: note, before });
        text = text.replace(/\.\s/, `.<span class="footnote">${note}</span> `);
      }
      if (p === 5) {
        const target = (chapter % 6) + 1;
        text += ` For the survey, <a class="xref" href="#s${target}-2">see section ${target}.2</a>.`;
        manifest.references.push({ label: `see section ${target}.2`, target: `Section ${target}.2: On the method` });
      }
      if (p === 12 && chapter > 1) text += ` This was treated earlier in <a class="xref-title" href="#h${chapter - 1}">the previous chapter</a>.`;
      body += `<p>${text}</p>\n`;
      manifest.paragraphs.push(text.replace(/<span class="footnote"[^>]*>[^<]*<\/span>/, '').replace(/<[^>]+>/g, ''));
    }
    return `<section class="chapter" id="ch${chapter}">\n<h1 id="h${chapter}">${title}</h1>\n${body}</section>`;
  });
  const contents = TITLES.map(
    (title, index) =>
      `<li><a href="#ch${index + 1}">${index + 1}. ${title}</a></li>\n` +
      `<li class="sub"><a href="#s${index + 1}-1">Section ${index + 1}.1</a></li><li class="sub"><a href="#s${index + 1}-2">Section ${index + 1}.2</a></li>`,
  ).join('\n');
  // no leader(): Paged.js 0.4.3 drops a content value that holds one
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
${optIn ? '<meta name="svc-paged" content="on">' : ''}
<title>Harbour Records</title>
<style>
@page { size: A4; margin: 25mm 20mm 25mm 20mm;
  @top-center { content: string(chaptitle); font: italic 9pt serif; }
  @top-right { content: element(doctitle); }
  @bottom-center { content: counter(page); font: 9pt serif; }
  @footnote { border-top: 0.5pt solid black; padding-top: 2mm; }
}
@page :left { margin-left: 25mm; margin-right: 15mm; }
@page :right { margin-left: 15mm; margin-right: 25mm; }
@page :first { @top-center { content: none; } @top-right { content: none; } @bottom-center { content: none; } }
@page :blank { @top-center { content: none; } @bottom-center { content: none; } }
@page toc { @top-center { content: "Contents"; } }
html { font: 11pt/1.45 serif; }
body { margin: 0; }
.doctitle { position: running(doctitle); font: 8pt sans-serif; }
.cover { break-after: page; text-align: center; padding-top: 80mm; }
.cover h1.title { font-size: 28pt; string-set: none; }
nav.toc { page: toc; break-after: page; }
nav.toc ol { list-style: none; padding: 0; }
nav.toc li.sub { padding-left: 2em; font-size: 10pt; }
nav.toc a { color: black; text-decoration: none; }
nav.toc a::after { content: " " target-counter(attr(href), page); }
section.chapter { page: chapter; break-before: right; counter-increment: chap; }
h1 { string-set: chaptitle content(text); font-size: 20pt; margin: 0 0 12pt; }
section.chapter h1::before { content: counter(chap) ". "; }
h2 { font-size: 13pt; break-after: avoid; }
p { margin: 0 0 6pt; text-align: justify; widows: 2; orphans: 2; }
a.xref::after { content: ", page " target-counter(attr(href), page); }
a.xref-title::after { content: " (“" target-text(attr(href), content) "”, page " target-counter(attr(href), page) ")"; }
.footnote { float: footnote; font-size: 8.5pt; }
::footnote-call { content: counter(footnote); vertical-align: super; font-size: 7pt; }
::footnote-marker { content: counter(footnote) ". "; }
</style></head>
<body>
<div class="doctitle">${BOOK_TITLE}</div>
<div class="cover"><h1 class="title">Harbour Records</h1><p>A deterministic paged-media book</p></div>
<nav class="toc"><h2>Contents</h2><ol>
${contents}
</ol></nav>
${chapters.join('\n')}
</body></html>
`;
  return { html, manifest };
}

/** The text of each page of a PDF: -layout (lines as placed) and -raw (content order). */
export function pagesOf(bytes: Buffer, pageCount: number): { layout: string[]; raw: string[] } {
  const text = (page: number, mode: string) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), mode, '-', '-'], { input: bytes }).toString();
  const pages = Array.from({ length: pageCount }, (_, index) => index + 1);
  return { layout: pages.map((page) => text(page, '-layout')), raw: pages.map((page) => text(page, '-raw')) };
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What the book's PDF shows, as a reader would check it; `problems` lists every mismatch. */
export function readBook(layout: string[], raw: string[], manifest: BookManifest) {
  const problems: string[] = [];
  const contentsPage = layout.findIndex((text) => /^\s*Contents\s*$/m.test(text)) + 1;
  const contentsLines = (layout[contentsPage - 1] ?? '').split('\n');
  const pagesWhere = (test: (text: string) => boolean) => layout.flatMap((text, index) => (index + 1 !== contentsPage && test(text) ? [index + 1] : []));
  // where each chapter's heading "k. Title" really is
  const starts = manifest.titles.map((title, index) => pagesWhere((text) => new RegExp(`^\\s*${index + 1}\\. ${title}\\s*$`, 'm').test(text)));
  const contentsNumbers = manifest.titles.map((title, index) => {
    const line = contentsLines.find((text) => text.includes(`${index + 1}. ${title}`)) ?? '';
    return Number(/(\d+)\s*$/.exec(line)?.[1] ?? NaN);
  });
  contentsNumbers.forEach((number, index) => {
    if (starts[index]!.length !== 1 || number !== starts[index]![0]) problems.push(`contents: chapter ${index + 1} listed at ${number}, heading on ${starts[index]!.join('/')}`);
  });
  for (let chapter = 1; chapter <= manifest.titles.length; chapter += 1) {
    for (const section of [1, 2]) {
      const line = contentsLines.find((text) => new RegExp(`Section ${chapter}\\.${section}\\b`).test(text)) ?? '';
      const listed = Number(/(\d+)\s*$/.exec(line)?.[1] ?? NaN);
      const actual = pagesWhere((text) => text.includes(`Section ${chapter}.${section}: On the`));
      if (actual.length !== 1 || listed !== actual[0]) problems.push(`contents: section ${chapter}.${section} listed at ${listed}, heading on ${actual.join('/')}`);
    }
  }
  // every page after the contents that holds text carries its chapter's title in its head
  const blank: number[] = [];
  let chapter = -1;
  let headed = 0;
  for (let page = contentsPage + 1; page <= layout.length; page += 1) {
    const started = starts.findIndex((pages) => pages[0] === page);
    if (started >= 0) chapter = started;
    const lines = layout[page - 1]!.split('\n').filter((line) => line.trim());
    if (lines.every((line) => line.trim() === BOOK_TITLE)) {
      blank.push(page);
      continue;
    }
    if (chapter >= 0 && lines[0]!.includes(manifest.titles[chapter]!)) headed += 1;
    else problems.push(`page ${page}: head "${squeeze(lines[0] ?? '').slice(0, 60)}" lacks its chapter's title`);
  }
  // each footnote's text on the page of its call
  for (const note of manifest.footnotes) {
    const textPages = raw.flatMap((text, index) => (squeeze(text).includes(note.text.slice(0, 40)) ? [index + 1] : []));
    const call = new RegExp(`${note.before.replace(/\./g, '\\.')}\\s?${note.number}\\b`);
    const callPages = raw.flatMap((text, index) => (call.test(squeeze(text)) ? [index + 1] : []));
    if (textPages.length !== 1 || callPages.length !== 1 || textPages[0] !== callPages[0]) problems.push(`footnote ${note.number}: text on ${textPages.join('/')}, call on ${callPages.join('/')}`);
  }
  // "see section t.2, page N" names the page the section is on
  for (const reference of manifest.references) {
    const said = new RegExp(`${reference.label.replace(/\./g, '\\.')},? ?page (\\d+)`);
    const hit = raw.map((text) => said.exec(squeeze(text))).find(Boolean);
    const actual = pagesWhere((text) => text.includes(reference.target));
    if (!hit || Number(hit[1]) !== actual[0]) problems.push(`${reference.label}: says page ${hit?.[1]}, section on ${actual.join('/')}`);
  }
  // "(“Title”, page N)" names the previous chapter and the page it starts on
  const titled = raw.flatMap((text) => [...squeeze(text).matchAll(/\(“([^”]*)”, page (\d+)\)/g)].map((match) => ({ title: match[1]!, page: Number(match[2]) })));
  const titledRight = titled.filter(({ title, page }) => starts[manifest.titles.indexOf(title)]?.[0] === page).length;
  if (titledRight !== manifest.titles.length - 1) problems.push(`titled references right: ${titledRight} of ${manifest.titles.length - 1}`);
  // every paragraph exactly once, in order, once page furniture, footnotes and generated text are taken out
  const furniture = (line: string) => /^[\s\d.]*$/.test([...manifest.titles, BOOK_TITLE].reduce((rest, title) => rest.split(title).join(' '), line));
  let body = squeeze(raw.slice(contentsPage).map((text) => text.split('\n').filter((line) => !furniture(line)).join('\n')).join('\n'));
  for (const note of manifest.footnotes) {
    const at = body.indexOf(squeeze(note.text));
    if (at >= 0) body = `${body.slice(0, at).replace(/\d+\.\s*$/, '')} ${body.slice(at + squeeze(note.text).length)}`;
  }
  body = squeeze(body).replace(/, ?page \d+/g, '').replace(/ \(“[^”]*”\)/g, '').replace(/\.\s?(\d{1,2}) (?=[A-Z])/g, '. ');
  let last = -1;
  manifest.paragraphs.forEach((paragraph, index) => {
    const text = squeeze(paragraph);
    const at = body.indexOf(text);
    if (at < 0) problems.push(`paragraph ${index + 1} missing: ${text.slice(0, 50)}`);
    else if (body.indexOf(text, at + 1) >= 0) problems.push(`paragraph ${index + 1} printed twice`);
    else if (at < last) problems.push(`paragraph ${index + 1} out of order`);
    if (at >= 0) last = at;
  });
  return { contentsPage, starts, contentsNumbers, blank, headed, problems };
}
