// The renderer's folders in their order, read from the import statements: each file imports
// only from its own folder or from folders below it, so no folder reaches back up. The
// package's root files sit at both ends: renderer.ts and index.ts above everything, types.ts
// (the renderer's options and logger) below everything.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));

/** Top to bottom; a file may import from its own layer and from those after it. */
const LAYERS = [
  ['index.ts'],
  ['renderer.ts'],
  ['pdf', 'image'],
  ['canvas'],
  ['browser'],
  ['report'],
  ['page', 'provenance'],
  ['types.ts'],
];

/** The layer of a file: its folder's, or a root file's own. */
function layerOf(file: string): number {
  const name = relative(src, file).split('/')[0]!;
  const layer = LAYERS.findIndex((names) => names.includes(name));
  if (layer < 0) throw new Error(`${relative(src, file)} is in no layer of this test: place its folder in LAYERS`);
  return layer;
}

const relativeImport = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]*)['"]/gm;

describe("the renderer's folders", () => {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(src, name));

  it('import downwards only', () => {
    expect(files.length).toBeGreaterThan(40);
    const upwards = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(relativeImport)]
        .filter(([, specifier]) => layerOf(resolve(dirname(file), specifier!)) < layerOf(file))
        .map(([, specifier]) => `${relative(src, file)} imports ${specifier}`),
    );
    expect(upwards).toEqual([]);
  });
});
