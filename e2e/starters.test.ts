// The dashboard's starter gallery: every starter is copied into an account through the
// saved-template use-case (all its checks) and rendered by the service with its sample data.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyStarter, DomainError, listStarters } from '@svc/core';
import type { Starter } from '../packages/core/src/starters/list-starters.ts';
import { describe, expect, it } from 'vitest';
import { newAccount, serviceContext } from './support/api.ts';
import { imageInfo, pdfInfo, pdfText, renderOk } from './support/files.ts';

/** Points per inch over millimetres per inch: page sizes as pdfinfo prints them. */
const points = (mm: number) => (mm / 25.4) * 72;
const paper: Record<string, [number, number]> = { A4: [210, 297], A5: [148, 210] };

/** A few words of the sample data every render must show, so a blank page cannot pass. */
const expectedText: Record<string, string[]> = {
  // the page number and the confidentiality line are page-margin boxes of the document's CSS
  invoice: ['INV-2026-0142', 'Acme Logistics Ltd', '€9,491.40', 'Page 1 of 1'],
  receipt: ['CORNER BAKERY', 'Almond croissant', '€26.90'],
  certificate: ['Amara Okafor', 'Programme Director'],
  'multilingual-certificate': ['Amara Okafor', '山田 花子', 'Ζωή Παπαδοπούλου', 'Иван Петров', '김민준', 'Page 7 of 7'],
  'report-cover': ['Sustainability and Performance 2025', 'April 2026', 'CONFIDENTIAL: NOT FOR DISTRIBUTION'],
  'annual-report': ['The board of directors', 'Contents', 'Reserves and risk', '£1.02 million'],
};

/** Pages of a PDF starter's sample render: one unless named here. */
const expectedPages: Record<string, number> = { 'multilingual-certificate': 7, 'annual-report': 9 };

interface ReportChapter {
  title: string;
  sections: { id: string; title: string; paragraphs: { footnote?: string; see?: { section: string } }[] }[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const squeeze = (text: string) => text.replace(/\s+/g, ' ');
const firstLine = (page: string) => page.split('\n').find((line) => line.trim()) ?? '';

/**
 * The annual report is laid out by Paged.js: its contents list each chapter and section at the
 * page its heading is really on, each "see page N" names its section's page, every page after
 * the cover carries the running head, and each footnote is printed once, numbered in order.
 */
function checkAnnualReport(pages: string[], data: Record<string, unknown>) {
  const chapters = data.chapters as ReportChapter[];
  const runningTitle = (data.title as string).toUpperCase();
  const contents = pages.findIndex((text) => /^\s*Contents\s*$/m.test(text));
  expect(contents).toBe(1);
  // the pages, other than the contents, where a line reads exactly this heading
  const headingPages = (heading: string) => pages.flatMap((text, index) => (index !== contents && new RegExp(`^\\s*${heading}\\s*$`, 'm').test(text) ? [index + 1] : []));
  const listedAt = (entry: string) => Number(new RegExp(`^\\s*${entry}\\s+(\\d+)\\s*$`, 'm').exec(pages[contents]!)?.[1]);
  const sectionPages = new Map<string, number>();
  chapters.forEach((chapter, c) => {
    const start = headingPages(escape(chapter.title));
    expect(start, chapter.title).toHaveLength(1);
    expect(listedAt(`${c + 1}\\s+${escape(chapter.title)}`), chapter.title).toBe(start[0]);
    expect(firstLine(pages[start[0]! - 1]!)).toContain(chapter.title.toUpperCase());
    chapter.sections.forEach((section, s) => {
      const heading = `${c + 1}\\.${s + 1}\\s+${escape(section.title)}`;
      const on = headingPages(heading);
      expect(on, section.title).toHaveLength(1);
      expect(listedAt(heading), section.title).toBe(on[0]);
      sectionPages.set(section.id, on[0]!);
    });
  });
  const paragraphs = chapters.flatMap((chapter) => chapter.sections.flatMap((section) => section.paragraphs));
  const said = [...squeeze(pages.join(' ')).matchAll(/\(see page (\d+)\)/g)].map((match) => Number(match[1]));
  expect(said).toEqual(paragraphs.flatMap((paragraph) => (paragraph.see ? [sectionPages.get(paragraph.see.section)] : [])));
  // the cover has no running head; every other page has it, and its number at the foot
  expect(pages[0]).not.toContain(runningTitle);
  pages.slice(1).forEach((text, index) => {
    expect(firstLine(text)).toContain(runningTitle);
    expect(text.trimEnd().split('\n').at(-1)!.trim()).toBe(String(index + 2));
  });
  const notes = paragraphs.flatMap((paragraph) => (paragraph.footnote ? [paragraph.footnote] : []));
  expect(notes.length).toBeGreaterThan(0);
  notes.forEach((note, index) => {
    const on = pages.filter((text) => squeeze(text).includes(`${index + 1}. ${note.slice(0, 40)}`));
    expect(on, note).toHaveLength(1);
  });
}

/** What a PDF starter's render must show page by page, read from the same file (pages split by pdftotext's form feeds). */
const pageChecks: Record<string, (pages: string[], data: Record<string, unknown>) => void> = { 'annual-report': checkAnnualReport };

describe('starter gallery', () => {
  it('has at least the six kinds the dashboard promises, each with a unique id, tags and a schema', () => {
    const starters = listStarters();
    expect(starters.map((starter) => starter.id)).toEqual(
      expect.arrayContaining(['invoice', 'receipt', 'certificate', 'social-card', 'event-ticket', 'report-cover', 'annual-report']),
    );
    expect(new Set(starters.map((starter) => starter.id)).size).toBe(starters.length);
    for (const starter of starters) {
      expect(starter.tags.length).toBeGreaterThan(0);
      expect(starter.schema).toMatchObject({ type: 'object' });
      // an image starter is a canvas of its image size; a PDF starter is an HTML document
      expect(starter.inputMode).toBe(starter.output.type === 'image' ? 'blank' : 'html');
    }
  });

  it.each(listStarters().map((starter) => [starter.id, starter] as [string, Starter]))(
    '%s: copies into an account as version 1 and renders its sample data',
    async (_id, starter) => {
      const account = await newAccount();
      const template = await copyStarter(serviceContext(), { accountId: account.accountId, starterId: starter.id });
      expect(template.template).toMatchObject({ name: starter.name, tags: starter.tags, inputMode: starter.inputMode, latestVersion: 1 });
      expect(template.latest.source).toBe(starter.source);

      if (starter.output.type === 'pdf') {
        const { pdf } = starter.output;
        const { file } = await renderOk('pdf', account.apiKey, { template_id: template.template.id, data: starter.sampleData, pdf });
        const info = pdfInfo(file.bytes);
        const [width, height] = paper[pdf.format]!;
        expect(info.pages).toBe(expectedPages[starter.id] ?? 1);
        expect([info.width, info.height].map(Math.round)).toEqual((pdf.landscape ? [height, width] : [width, height]).map((mm) => Math.round(points(mm))));
        const text = pdfText(file.bytes).replace(/\s+/g, ' ');
        for (const words of expectedText[starter.id] ?? []) expect(text).toContain(words);
        pageChecks[starter.id]?.(pdfText(file.bytes).split('\f').slice(0, -1), starter.sampleData);
        return;
      }
      const { format, width, height } = starter.output;
      const { file } = await renderOk('image', account.apiKey, { template_id: template.template.id, data: starter.sampleData, image: { format, width, height } });
      expect(await imageInfo(file.bytes)).toMatchObject({ format, width, height });
      for (const size of starter.sizes ?? []) {
        const sized = await renderOk('image', account.apiKey, { template_id: template.template.id, data: starter.sampleData, size_id: size.id, image: { format } });
        expect(await imageInfo(sized.file.bytes)).toMatchObject({ format, width: size.width, height: size.height });
      }
    },
    120_000,
  );

  it('multilingual certificates: each script set in a Noto face, embedded, and a bookmark per recipient', async () => {
    const account = await newAccount();
    const starter = listStarters().find((entry) => entry.id === 'multilingual-certificate')!;
    const template = await copyStarter(serviceContext(), { accountId: account.accountId, starterId: starter.id });
    const { file } = await renderOk('pdf', account.apiKey, { template_id: template.template.id, data: starter.sampleData, pdf: starter.output.type === 'pdf' ? starter.output.pdf : {} });
    const fonts = execFileSync('pdffonts', ['-'], { input: file.bytes }).toString();
    for (const face of ['NotoSerif', 'NotoNaskhArabic', 'NotoSerifDevanagari']) expect(fonts, face).toMatch(new RegExp(`\\+${face}-\\S+\\s.*\\syes\\s+yes\\s`));
    // the CJK faces have CFF outlines, which Chromium's PDF writer embeds as Type 3 fonts
    expect(fonts).toMatch(/Type 3\s+Custom\s+yes/);
    const directory = mkdtempSync(join(tmpdir(), 'starters-test-'));
    try {
      writeFileSync(join(directory, 'certificates.pdf'), file.bytes);
      const outline = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', join(directory, 'certificates.pdf')]).toString()).outlines;
      // Chromium writes a right-to-left title's words in display order, so words are compared as sets
      const words = (text: string) => text.split(' ').sort();
      expect(outline.map((entry: { title: string }) => words(entry.title))).toEqual(
        (starter.sampleData.recipients as { name: string }[]).map((recipient) => words(recipient.name)),
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);

  it('answers gallery_template_not_found for an unknown starter and saves nothing', async () => {
    const account = await newAccount();
    const ctx = serviceContext();
    const copy = copyStarter(ctx, { accountId: account.accountId, starterId: 'no-such-starter' });
    await expect(copy).rejects.toBeInstanceOf(DomainError);
    await expect(copy).rejects.toMatchObject({ code: 'gallery_template_not_found' });
    expect(await ctx.db.template.count({ where: { accountId: account.accountId } })).toBe(0);
  });
});
