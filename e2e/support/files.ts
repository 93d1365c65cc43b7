// Reads rendered files the way a person would check them: poppler and qpdf for PDFs, sharp for images.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { api, expectError } from './api.ts';

function withTempFile<T>(bytes: Buffer, work: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'svc-check-'));
  const path = join(dir, 'file');
  writeFileSync(path, bytes);
  try {
    return work(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfInfo {
  pages: number;
  /** Page size in PostScript points, as pdfinfo prints it. */
  width: number;
  height: number;
  title?: string;
  author?: string;
  subject?: string;
  encrypted: boolean;
}

export function pdfInfo(bytes: Buffer, password?: string): PdfInfo {
  return withTempFile(bytes, (path) => {
    const text = execFileSync('pdfinfo', [...(password ? ['-upw', password] : []), path], { encoding: 'utf8' });
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim();
    const size = /Page size:\s*([\d.]+) x ([\d.]+)/.exec(text);
    return {
      pages: Number(field('Pages')),
      width: Number(size?.[1]),
      height: Number(size?.[2]),
      title: field('Title'),
      author: field('Author'),
      subject: field('Subject'),
      encrypted: (field('Encrypted') ?? 'no').startsWith('yes'),
    };
  });
}

/** Whether the PDF opens without a password. */
export function opensWithoutPassword(bytes: Buffer): boolean {
  return withTempFile(bytes, (path) => spawnSync('pdfinfo', [path]).status === 0);
}

export function pdfText(bytes: Buffer, password?: string): string {
  return withTempFile(bytes, (path) => execFileSync('pdftotext', [...(password ? ['-upw', password] : []), '-layout', path, '-'], { encoding: 'utf8' }));
}

export async function imageInfo(bytes: Buffer) {
  const metadata = await sharp(bytes).metadata();
  return { format: metadata.format, width: metadata.width, height: metadata.height, hasAlpha: metadata.hasAlpha };
}

/** Downloads a succeeded job's file through its signed link. */
export async function download(job: { download: { url: string } | null }) {
  if (!job.download) throw new Error('job has no download link');
  const response = await fetch(job.download.url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** Renders and expects success; returns the job and its file. */
export async function renderOk(kind: 'pdf' | 'image', key: string, body: Record<string, unknown>) {
  const response = await api(`/v1/${kind}`, { method: 'POST', key, body });
  if (response.status !== 200 || response.body.status !== 'succeeded') {
    throw new Error(`render did not succeed: ${response.status} ${response.text.slice(0, 400)}`);
  }
  return { job: response.body, file: await download(response.body) };
}

export { expectError };
