// Real WOFF2 fonts for brand asset tests: a system TrueType font (fonts-dejavu-core, installed by
// npm test) compressed with wawoff2, the encoder the core font tests use (a dev dependency of
// @svc/core, loaded from there).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const { compress } = createRequire(new URL('../../packages/core/package.json', import.meta.url))('wawoff2') as {
  compress(input: Uint8Array): Promise<Uint8Array>;
};

export const fontDir = '/usr/share/fonts/truetype/dejavu';

/** A system TrueType font file as is. */
export const ttf = (file: string) => readFile(`${fontDir}/${file}`);

/** A system TrueType font as WOFF2. */
export async function woff2(file: string): Promise<Buffer> {
  return Buffer.from(await compress(await ttf(file)));
}
