// What a render painted, read back as a person would see it: the colour at a point of a picture,
// or of a PDF's first page drawn by poppler.
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';

/** RGB of the pixel at (fx, fy), fractions of the picture's width and height. */
export async function colourAt(png: Uint8Array, fx: number, fy: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.floor(fy * info.height) * info.width + Math.floor(fx * info.width)) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

/** RGB at (fx, fy) of the PDF's first page, rasterised at 20 dpi. */
export function paintedAt(pdf: Uint8Array, fx: number, fy: number): Promise<number[]> {
  return colourAt(execFileSync('pdftoppm', ['-r', '20', '-f', '1', '-l', '1', '-png', '-'], { input: pdf }), fx, fy);
}
