// The fonts the worker carries (docs/fonts.md): every script of a multilingual page is drawn
// with an embedded face, Noto's where the Latin face lacks the script, and reads back in
// logical order; colour emoji are in colour; proprietary names draw with their metric-compatible
// faces. Read back as a person would, with poppler's pdffonts and pdftotext and the image's pixels.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { metricCompatibleAliases } from '@svc/rules';
import { accountLaunchOptions, browserAccount, makeBrowserDirs } from '../src/browser/browser-account.ts';
import { DEFAULT_CHROMIUM_PATH, launchFlags } from '../src/browser/launch-flags.ts';
import { Renderer } from '../src/index.ts';

const chromiumPath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport = { width: 1280, height: 720, device_scale_factor: 1 };
const renderPdf = (html: string) => renderer.renderPdf({ html, pdf: {}, viewport, javascript: 'disabled' });
const renderPng = (html: string, width: number, height: number) => renderer.renderImage({ html, image: { format: 'png', width, height }, javascript: 'disabled' });

interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
}

/** pdffonts' table: the name (subset tag removed), the type and the emb column. */
function pdfFonts(pdf: Buffer): PdfFont[] {
  const lines = execFileSync('pdffonts', ['-'], { input: pdf }).toString().split('\n').slice(2).filter(Boolean);
  return lines.map((line) => {
    // name, then type (may contain spaces), then encoding, emb, sub, uni, object id, generation
    const match = /^(\S+)\s+(.+?)\s{2,}(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/.exec(line);
    if (!match) throw new Error(`unexpected pdffonts line: ${line}`);
    return { name: match[1]!.replace(/^[A-Z]{6}\+/, ''), type: match[2]!, embedded: match[4] === 'yes' };
  });
}

/** pdftotext's lines without the bidi controls it wraps right-to-left runs in, empty lines dropped. */
function pdfLines(pdf: Buffer): string[] {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString();
  return text
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

const lines = [
  { script: 'Latin', lang: 'en', text: 'The quick brown fox jumps' },
  { script: 'Greek', lang: 'el', text: 'Καλημέρα κόσμε' },
  { script: 'Cyrillic', lang: 'ru', text: 'Съешь же ещё этих булок' },
  { script: 'Arabic', lang: 'ar', dir: 'rtl', text: 'مرحبا بالعالم' },
  { script: 'Hebrew', lang: 'he', dir: 'rtl', text: 'שלום עולם' },
  { script: 'Devanagari', lang: 'hi', text: 'नमस्ते दुनिया' },
  { script: 'Thai', lang: 'th', text: 'สวัสดีชาวโลก' },
  { script: 'Chinese', lang: 'zh-Hans', text: '你好，世界' },
  { script: 'Japanese', lang: 'ja', text: 'こんにちは世界' },
  { script: 'Korean', lang: 'ko', text: '안녕하세요 세계' },
  { script: 'Emoji', lang: 'en', text: '😀🎉' },
];

/** No font-family: the page's default face, with fallback for every script it lacks. */
const multilingual = `<body style="font-size:20px">${lines.map((line) => `<p lang="${line.lang}"${line.dir ? ` dir="${line.dir}"` : ''}>${line.text}</p>`).join('')}</body>`;

describe('a multilingual page', () => {
  let pdf: Buffer;
  beforeAll(async () => {
    pdf = (await renderPdf(multilingual)).bytes;
  });

  test('embeds every face it draws with, Noto faces for the scripts the Latin face lacks', () => {
    const fonts = pdfFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((font) => !font.embedded)).toEqual([]);
    const names = fonts.map((font) => font.name);
    // Arabic would come from DejaVu Sans by Debian's own preferences: Noto's face proves the
    // browser reads the renderer's fontconfig file
    for (const face of ['NotoSansArabic', 'NotoSansDevanagari', 'NotoSansThai']) expect(names.some((name) => name.startsWith(face)), face).toBe(true);
    expect(names).not.toContainEqual(expect.stringMatching(/^DejaVu/));
    // CJK (CFF outlines) and colour emoji (bitmaps) are drawn as Type 3 fonts, which carry no name
    expect(fonts.some((font) => font.type === 'Type 3')).toBe(true);
  });

  test('reads back in logical order, each script on its line as written (right to left included)', () => {
    expect(pdfLines(pdf)).toEqual(lines.map((line) => line.text));
  });
});

/** The raw RGBA pixels of a PNG. */
async function pixels(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().raw().toBuffer();
}

describe('the face each line is drawn with, as the browser reports it', () => {
  // a browser started as the renderer starts it (its account, profile and fontconfig file), so
  // DevTools can name the platform fonts of each line (the PDF names no Type 3 font)
  let browser: Browser;
  let profile: string;
  const drawn = new Map<string, string[]>();

  beforeAll(async () => {
    const account = browserAccount();
    const dirs = await makeBrowserDirs(account);
    profile = dirs.userDataDir;
    browser = await puppeteer.launch(accountLaunchOptions({ executablePath: chromiumPath, flags: launchFlags(profile), dirs }));
    const page = await browser.newPage();
    await page.setContent(multilingual, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'p' });
    for (const [index, nodeId] of nodeIds.entries()) {
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      drawn.set(lines[index]!.script, fonts.map((font) => font.familyName));
    }
  });

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const faces: [string, RegExp][] = [
    ['Latin', /^Liberation Serif$/],
    ['Greek', /^Liberation Serif$/],
    ['Cyrillic', /^Liberation Serif$/],
    ['Hebrew', /^Liberation Serif$/],
    ['Arabic', /^Noto Sans Arabic$/],
    ['Devanagari', /^Noto Sans Devanagari$/],
    ['Thai', /^Noto Sans Thai$/],
    ['Chinese', /^Noto Sans CJK (SC|TC|JP|KR)$/],
    ['Japanese', /^Noto Sans CJK (SC|TC|JP|KR)$/],
    ['Korean', /^Noto Sans CJK (SC|TC|JP|KR)$/],
    ['Emoji', /^Noto Color Emoji$/],
  ];
  test.for(faces)('%s', ([script, face]) => {
    // the script's letters come from this face; spaces and punctuation may come from the page's default
    expect(drawn.get(script)).toContainEqual(expect.stringMatching(face));
    expect(drawn.get(script)!.every((family) => face.test(family) || family === 'Liberation Serif')).toBe(true);
  });
});

test('a CJK character takes the forms of the language it is marked with', async () => {
  const line = (lang: string) => `<body style="margin:0;background:#fff"><p lang="${lang}" style="margin:8px;font-size:64px">骨直</p></body>`;
  const [chinese, japanese, again] = await Promise.all(['zh-Hans', 'ja', 'ja'].map((lang) => renderPng(line(lang), 200, 96).then((output) => pixels(output.bytes))));
  expect(japanese!.equals(again!)).toBe(true);
  expect(chinese!.equals(japanese!)).toBe(false);
});

test('emoji are drawn in colour where they stand', async () => {
  const html = `<body style="margin:0;background:#fff;font:80px sans-serif"><span style="position:absolute;left:0;top:0">Aa</span><span style="position:absolute;left:200px;top:0">😀</span></body>`;
  const png = (await renderPng(html, 400, 120)).bytes;
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const coloured = (fromX: number, toX: number) => {
    let count = 0;
    for (let y = 0; y < info.height; y++) {
      for (let x = fromX; x < toX; x++) {
        const at = (y * info.width + x) * 3;
        const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
        if (Math.max(r, g, b) - Math.min(r, g, b) > 80) count++;
      }
    }
    return count;
  };
  // the text beside it is grey (antialiased black), the emoji mostly saturated yellow
  expect(coloured(0, 190)).toBe(0);
  expect(coloured(200, 400)).toBeGreaterThan(1000);
});

describe('proprietary names draw with their metric-compatible faces', () => {
  const expected: Record<string, string> = {
    'Liberation Sans': 'LiberationSans',
    'Liberation Serif': 'LiberationSerif',
    'Liberation Mono': 'LiberationMono',
    Carlito: 'Carlito',
    Caladea: 'Caladea',
  };
  test('the list names Arial, Helvetica, Times New Roman, Times, Courier New, Courier, Calibri and Cambria', () => {
    expect(metricCompatibleAliases.map((alias) => alias.name).sort()).toEqual(['Arial', 'Calibri', 'Cambria', 'Courier', 'Courier New', 'Helvetica', 'Times', 'Times New Roman']);
  });
  test.for(metricCompatibleAliases)('$name -> $family', async ({ name, family }) => {
    const pdf = (await renderPdf(`<p style="font-family:'${name}';font-size:20px">Metric compatible 0123</p>`)).bytes;
    expect(pdfFonts(pdf).map((font) => font.name)).toEqual([expect.stringMatching(new RegExp(`^${expected[family]}(-Regular)?$`))]);
  });
});
