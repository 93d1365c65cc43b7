// A PDF's first page as a small WebP, for the dashboard's history. poppler's pdftoppm draws
// it: no browser is needed. The PDF is the service's own output, but a tenant's images and
// fonts reach poppler verbatim inside it, so pdftoppm runs in the sandbox (@svc/sandbox: an
// unprivileged account, no network, no view of the service's files, the seccomp filter, an
// environment of its own), bounded in time and in what it may print. It reads the PDF on
// standard input and prints raw pixels (PPM), so the worker decodes no compressed image that
// a compromised poppler could have crafted: it checks a fixed header and a byte count.
import { runSandboxed } from '@svc/sandbox';
import sharp from 'sharp';

const PDFTOPPM = '/usr/bin/pdftoppm';
/** The longest side, in pixels: twice the 80 px the history shows, for sharp screens. */
export const pdfThumbnailEdge = 160;
const timeoutMs = 10_000;
/** The largest PPM a 160 px page can be: its header and 160 x 160 RGB pixels. */
const maxPpmBytes = 64 + pdfThumbnailEdge * pdfThumbnailEdge * 3;

/**
 * The first page scaled to fit pdfThumbnailEdge, as WebP. Rejects when poppler cannot draw it
 * (an encrypted PDF, a damaged one), takes too long, or prints anything but such a page; the
 * caller decides what a missing thumbnail means.
 */
export async function pdfFirstPageThumbnail(pdf: Uint8Array): Promise<Uint8Array> {
  const ppm = await runSandboxed({
    command: PDFTOPPM,
    args: ['-f', '1', '-l', '1', '-singlefile', '-scale-to', String(pdfThumbnailEdge), '-'],
    input: pdf,
    timeoutMs,
    maxOutputBytes: maxPpmBytes,
  });
  const { width, height, pixels } = parsePpm(ppm);
  return sharp(pixels, { raw: { width, height, channels: 3 } }).webp({ quality: 75 }).toBuffer();
}

/** pdftoppm's binary PPM: "P6\n<width> <height>\n255\n", then exactly width x height RGB pixels. */
function parsePpm(ppm: Buffer): { width: number; height: number; pixels: Buffer } {
  const header = /^P6\n(\d{1,4}) (\d{1,4})\n255\n/.exec(ppm.toString('latin1', 0, 32));
  if (!header) throw new Error('pdftoppm printed no PPM image');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = ppm.subarray(header[0].length);
  const inBounds = (side: number) => side >= 1 && side <= pdfThumbnailEdge;
  if (!inBounds(width) || !inBounds(height) || pixels.length !== width * height * 3) throw new Error(`pdftoppm printed a ${width}x${height} image of ${pixels.length} bytes`);
  return { width, height, pixels };
}
