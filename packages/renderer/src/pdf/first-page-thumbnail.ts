// A PDF's first page as a small WebP, for the dashboard's history. poppler's pdftoppm draws
// it: no browser is needed, and the file is our own output, but it still runs bounded (a time
// limit, a cap on what it may print, its pixel size fixed by -scale-to) and reads the PDF on
// standard input, so no path or name of the customer's reaches its command line.
import { spawn } from 'node:child_process';
import sharp from 'sharp';

const PDFTOPPM = 'pdftoppm';
/** The longest side, in pixels: twice the 80 px the history shows, for sharp screens. */
export const pdfThumbnailEdge = 160;
const timeoutMs = 10_000;
/** A 160 px PNG is a few tens of kB; anything far beyond that is not a thumbnail. */
const maxPngBytes = 4 * 1024 * 1024;

/**
 * The first page scaled to fit pdfThumbnailEdge, as WebP. Rejects when poppler cannot draw it
 * (an encrypted PDF, a damaged one) or takes too long; the caller decides what a missing
 * thumbnail means.
 */
export async function pdfFirstPageThumbnail(pdf: Uint8Array): Promise<Uint8Array> {
  const png = await rasteriseFirstPage(pdf);
  return sharp(png).webp({ quality: 75 }).toBuffer();
}

function rasteriseFirstPage(pdf: Uint8Array): Promise<Buffer> {
  const args = ['-f', '1', '-l', '1', '-singlefile', '-scale-to', String(pdfThumbnailEdge), '-png', '-'];
  return new Promise((resolve, reject) => {
    const child = spawn(PDFTOPPM, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxPngBytes) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-1_000);
    });
    // poppler may stop reading early (a damaged file): the close event reports it
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0 && size > 0 && size <= maxPngBytes) resolve(Buffer.concat(chunks));
      else reject(new Error(`pdftoppm ended with ${signal ?? code}${size > maxPngBytes ? ' (output too large)' : ''}: ${stderr.trim()}`));
    });
    child.stdin.end(pdf);
  });
}
