// Layout facts for the AI review: a document laid out at its output size and measured in the sandbox.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Renderer } from '../src/index.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 1, warmSandboxes: 1 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport = { width: 400, height: 300 };

describe('layout measurement', () => {
  test('finds nothing wrong with a document that fits its canvas', async () => {
    const html = '<style>body { margin: 0; font: 20px DejaVu Sans }</style><h1>Sale</h1><p>Ten percent off.</p>';
    expect(await renderer.measureLayout({ account: 'acct-m', html, viewport })).toEqual({ contentWidth: 400, contentHeight: 300, textOutside: 0, clippedBoxes: 0 });
  });

  test('reports text past the edge of the canvas and boxes that cut their content off', async () => {
    const html = `<style>body { margin: 0; font: 40px DejaVu Sans } .tight { width: 100px; height: 40px; overflow: hidden }</style>
      <div style="height: 280px">top</div><p>below the canvas</p><div class="tight">a word too long for this box</div>`;
    const facts = await renderer.measureLayout({ account: 'acct-m', html, viewport });
    expect(facts.contentHeight).toBeGreaterThan(300);
    expect(facts.textOutside).toBeGreaterThanOrEqual(2);
    expect(facts.clippedBoxes).toBe(1);
  });

  test('measures the document with script off', async () => {
    const html = '<script>document.body.innerHTML = "<div style=\\"width: 5000px\\">wide</div>"</script><p>static</p>';
    const facts = await renderer.measureLayout({ account: 'acct-m', html, viewport });
    expect(facts.contentWidth).toBe(400);
  });
});
