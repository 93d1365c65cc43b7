// The browser side of adapt: a marked canvas laid out in a sandbox of its account, with the
// network blocked and script off, leaving the sandbox as the next render of that account expects.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 1, warmSandboxes: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const page = (inside: string) =>
  `<style>body { margin: 0 } @media (max-width: 600px) { body { background: #ff0000 } }</style>
<div data-svc-adapt="0" data-svc-page="a" style="width: 1280px; height: 720px; font: 40px DejaVu Sans">${inside}</div>`;
const canvas = { width: 1280, height: 720 };

describe('adapt layout in the sandbox', () => {
  test('answers inline styles per target and hands the sandbox back at the canvas viewport', async () => {
    const layouts = await renderer.adaptCanvas({ account: 'acct-a', html: page('<p data-svc-adapt="1">Hello there</p>'), canvas, targets: [{ width: 400, height: 1200 }] });
    expect(layouts).toHaveLength(1);
    const edits = 'edits' in layouts[0]! ? layouts[0].edits : [];
    expect(edits.map((edit) => edit.id)).toEqual(['0']);
    expect(edits[0]!.style.map(([property]) => property)).toEqual(['zoom', 'width', 'height']);
    // the same account's next job reuses the sandbox; it must see its own viewport, not the last target's
    const image = await renderer.renderImage({ account: 'acct-a', html: '<style>body { margin: 0; background: #fff } @media (max-width: 600px) { body { background: #f00 } }</style>', image: { format: 'png', width: 1280, height: 720 }, javascript: 'disabled' });
    const { data, info } = await sharp(image.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, data[0], data[1], data[2]]).toEqual([1280, 720, 255, 255, 255]);
    // the sandbox goes back to the warm pool once its reset is done, just after the answer
    await expect.poll(() => renderer.status().warmSandboxes).toBeGreaterThan(0);
  });

  test('lays the source out with script off: what a script would do never happens', async () => {
    const html = page('<p data-svc-adapt="1">Text</p><script data-svc-adapt="2">document.querySelector("[data-svc-page]").remove()</script>');
    const [layout] = await renderer.adaptCanvas({ account: 'acct-b', html, canvas, targets: [{ width: 720, height: 1280 }] });
    expect(layout).toMatchObject({ edits: [{ id: '0' }] });
  });

  test('fails a source that reaches for the network, and answers resize_no_layout for a canvas with nothing to lay out', async () => {
    const remote = page('<img data-svc-adapt="1" src="https://example.com/logo.png">');
    await expect(renderer.adaptCanvas({ account: 'acct-c', html: remote, canvas, targets: [{ width: 400, height: 400 }] })).rejects.toMatchObject({
      name: 'RenderError',
      category: 'unsafe_asset',
    } satisfies Partial<RenderError>);
    const empty = await renderer.adaptCanvas({ html: '<p data-svc-adapt="0">no page</p>', canvas, targets: [{ width: 400, height: 400 }] });
    expect(empty).toEqual([{ error: 'resize_no_layout' }]);
  });
});
