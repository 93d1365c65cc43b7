// What the report reads inside the loaded page, in the service's isolated world
// (page/isolated-world.ts). Plain JavaScript source, not functions: a function's toString()
// may carry helpers a transpiler added that do not exist in the page (see
// canvas/select-canvas-pages.ts). Each is a function expression the caller applies to a JSON
// argument. Every loop is bounded, so a long document costs a bounded amount.

import { SELECTOR_OF } from '../page/element-selector.ts';

/** Scripts whose text a document's own face rarely draws: each has a Noto fallback of its own. */
const SCRIPTS = [
  'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar',
  'Georgian', 'Hangul', 'Ethiopic', 'Khmer', 'Mongolian', 'Han', 'Hiragana', 'Katakana',
].map((name) => `['${name}', /\\p{Script=${name}}/u]`).join(', ');

/** Shared helpers: a selector for an element, a quote of text cut to size, the scripts of a text. */
const HELPERS = `
  const selectorOf = ${SELECTOR_OF};
  const quote = (text) => {
    const flat = String(text).replace(/\\s+/g, ' ').trim();
    if (flat.length <= options.quoteChars) return flat;
    let cut = flat.slice(0, options.quoteChars);
    if (/[\\uD800-\\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
    return cut + '\\u2026';
  };
  // the scripts of a text beyond Latin: text in another script is drawn by another face (a
  // fallback the style does not name), so each gets a sample of its own for the fonts list
  const scriptPatterns = [${SCRIPTS}];
  const emojiPattern = /\\p{Extended_Pictographic}/u;
  const scriptsOf = (text, element) => {
    if (!/[^\\u0000-\\u024F\\u2000-\\u206F]/.test(text)) return '';
    const head = text.slice(0, 2000);
    let names = '';
    for (const [name, pattern] of scriptPatterns) if (pattern.test(head)) names += name + ',';
    if (emojiPattern.test(head)) names += 'emoji,';
    // Han is drawn by the face of the text's language (Chinese, Japanese or Korean forms)
    if (/Han|Hangul|Hiragana|Katakana/.test(names)) names += (element.closest('[lang]')?.getAttribute('lang') || '') + ',';
    return names || 'other';
  };
  const skipText = (node) => {
    const parent = node.parentElement;
    return !parent || parent.closest('script, style, noscript, template, head');
  };
`;

/**
 * The elements of the body whose overflow may not be visible, in document order: those a style
 * rule or their own style attribute gives an overflow, and the form controls the browser's own
 * style sheet does. Null when a style sheet cannot be read (one from
 * another origin) or a rule's selector cannot be queried (nested rules): then every element is
 * measured. Reading the rules costs far less than measuring each element of a long document.
 */
const CLIP_CANDIDATES = `
  const clipCandidates = (body) => {
    const overflows = ['overflow', 'overflow-x', 'overflow-y', 'overflow-inline', 'overflow-block'];
    // replaced elements (img, svg, video ...) clip too, but their content is scaled to their box
    const selectors = ['[style*="overflow" i]', 'textarea', 'select', 'input', 'button', 'marquee'];
    const collect = (rules, depth) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) {
          // a nested rule's selector is relative to its parent's: not queried on its own
          if (rule.cssRules.length > 0) return false;
          if (overflows.some((name) => { const value = rule.style.getPropertyValue(name); return value !== '' && value !== 'visible'; })) selectors.push(rule.selectorText);
        } else if (rule.cssRules) {
          if (depth > 8 || !collect(rule.cssRules, depth + 1)) return false;
        }
      }
      return true;
    };
    for (const sheet of [...document.styleSheets, ...document.adoptedStyleSheets]) {
      let rules;
      try { rules = sheet.cssRules; } catch { return null; }
      if (!collect(rules, 0)) return null;
    }
    const found = new Set();
    for (const selector of selectors) {
      let matched;
      try { matched = body.querySelectorAll(selector); } catch { return null; }
      for (const element of matched) found.add(element);
    }
    return [...found].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  };
`;

/**
 * Whether an @page rule of the document has page-margin boxes (@top-center, @bottom-right ...):
 * the printer draws them, and no element stands for their text. A style sheet that cannot be
 * read may have them.
 */
const MARGIN_BOXES = `
  const hasMarginBoxes = () => {
    const marginRule = /@(top|bottom|left|right)-/i;
    const holds = (rules, depth) => {
      for (const rule of rules) {
        if (rule.type === CSSRule.PAGE_RULE) {
          if (marginRule.test(rule.cssText)) return true;
        } else if (rule.cssRules && depth < 8 && holds(rule.cssRules, depth + 1)) return true;
      }
      return false;
    };
    for (const sheet of [...document.styleSheets, ...document.adoptedStyleSheets]) {
      try { if (holds(sheet.cssRules, 0)) return true; } catch { return true; }
    }
    return false;
  };
`;

/**
 * One pass over the document, in two parts the caller chooses (`options.content`,
 * `options.layout`). Content, which changes nothing: script, the distinct characters of its
 * text, images that did not decode, web fonts that failed, and how many boxes could clip.
 * Layout: boxes that clip their content and content past the page's width; for a PDF the root
 * is laid out at the printable width for the measurement (an adopted style sheet, removed
 * before the function returns: no resize event, no mutation a page observer could see). Either
 * part takes one element per font style (for the fonts list) when asked, and with them, for a
 * PDF, whether the document has page-margin boxes.
 */
export const INSPECT_PAGE = `async (options) => {
  ${HELPERS}
  ${CLIP_CANDIDATES}
  ${MARGIN_BOXES}
  const result = { scriptElements: 0, eventHandlers: 0, clipCandidates: -1, clipped: [], wide: [], characters: '', samples: [], textChars: 0, sampledChars: 0, images: [], fonts: [], webFonts: 0, marginBoxes: false };
  const all = document.getElementsByTagName('*');
  if (options.content) {
    const scriptType = /^(|module|(text|application)\\/(x-)?(java|ecma)script|text\\/(jscript|livescript|javascript1\\.[0-5]))$/i;
    for (const script of document.getElementsByTagName('script')) {
      if (scriptType.test((script.getAttribute('type') || '').trim())) result.scriptElements++;
    }
    // counted by the document's own XPath engine: no element is wrapped for the look's world
    result.eventHandlers = document.evaluate('count(//@*[starts-with(name(), "on")])', document, null, XPathResult.NUMBER_TYPE, null).numberValue;
  }

  const root = document.documentElement;
  const body = document.body;
  let fitted = null;
  // when nothing is wider than the page (for a PDF its printed scale tells, for an image the
  // document's scroll width), only boxes that can clip need measuring; null: every element is
  const maybeWide = options.checkWidth && (options.fitRootTo !== null || root.scrollWidth > options.pageWidth + 1);
  const clipping = body && !maybeWide ? clipCandidates(body) : null;
  result.clipCandidates = clipping === null ? -1 : clipping.length;
  // A PDF is measured at its printable width: a relayout, only when there is something to
  // measure, and up to a bound (a relayout of a long document costs more than the rest together;
  // past the bound its width is not checked)
  const fits = options.layout && options.fitRootTo !== null && (clipping === null || clipping.length > 0) && all.length <= options.maxFitElements;
  if (fits) {
    fitted = new CSSStyleSheet();
    fitted.replaceSync('html { width: ' + options.fitRootTo + 'px !important; min-width: 0 !important; max-width: none !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, fitted];
  }
  try {
    if (body && options.layout) {
      const pageWidth = options.pageWidth;
      // The scrolling element's scroll width (the root's, or in quirks mode the body's) is at
      // least the viewport's: it tells whether anything is wider than an image, but not whether
      // anything is wider than a fitted root narrower than the viewport, so then every element is measured.
      const scroller = document.scrollingElement;
      const wide = !options.checkWidth ? false : options.fitRootTo === null ? root.scrollWidth > pageWidth + 1 : fits;
      const reported = new Set();
      const insideReported = (element) => {
        for (let node = element.parentElement; node; node = node.parentElement) if (reported.has(node)) return true;
        return false;
      };
      const elements = clipping ?? body.getElementsByTagName('*');
      for (let index = clipping ? 0 : -1; index < elements.length && index < options.maxElements; index++) {
        const element = index < 0 ? body : elements[index];
        const scrollWidth = element.scrollWidth, clientWidth = element.clientWidth;
        const scrollHeight = element.scrollHeight, clientHeight = element.clientHeight;
        const overflowsX = scrollWidth > clientWidth + 1, overflowsY = scrollHeight > clientHeight + 1;
        let style = null;
        // the boxes of a paged layout (paged-media.ts) clip by design: what they hide went to the next page
        const pageBox = index >= 0 && typeof element.className === 'string' && element.className.startsWith('pagedjs_');
        if (index >= 0 && !pageBox && (overflowsX || overflowsY) && result.clipped.length < options.maxEntries) {
          style = getComputedStyle(element);
          if ((overflowsX && style.overflowX !== 'visible') || (overflowsY && style.overflowY !== 'visible')) {
            result.clipped.push({ selector: selectorOf(element), context: quote(element.textContent || ''), box: { width: clientWidth, height: clientHeight }, content: { width: scrollWidth, height: scrollHeight } });
          }
        }
        if (wide && result.wide.length < options.maxEntries) {
          const rect = element.getBoundingClientRect();
          if (rect.width === 0 && rect.height === 0) continue;
          // the style is read only for an element that may reach past the page (most do not)
          if (Math.max(rect.right, rect.left + scrollWidth) + scrollX <= pageWidth + 1) continue;
          style = style || getComputedStyle(element);
          const spills = style.overflowX === 'visible' && element !== scroller ? rect.left + scrollWidth : rect.right;
          const reach = Math.max(rect.right, spills) + scrollX;
          if (reach > pageWidth + 1 && !insideReported(element)) {
            reported.add(element);
            result.wide.push({ selector: selectorOf(element), width: Math.round(reach), page_width: Math.round(pageWidth) });
          }
        }
      }
    }

    // Style samples for the fonts list, when it comes from the page: an image's, or a PDF's
    // whose file cannot name its faces (web fonts, unnamed faces)
    result.webFonts = [...document.fonts].filter((face) => face.status === 'loaded').length;
    const styles = new Map();
    if (options.sampleFonts || (options.content && result.webFonts > 0)) {
      const walker = document.createTreeWalker(body || root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(), styledNodes = 0; node && styledNodes < options.maxStyledNodes; node = walker.nextNode()) {
        const text = node.data;
        if (!/\\S/.test(text) || skipText(node)) continue;
        styledNodes++;
        result.sampledChars += text.length;
        const parent = node.parentElement;
        const style = getComputedStyle(parent);
        const key = style.fontFamily + '|' + style.fontWeight + '|' + style.fontStyle + '|' + style.fontStretch + '|' + scriptsOf(text, parent);
        const known = styles.get(key);
        if (known) known.chars += text.length;
        else if (styles.size < options.maxSamples) styles.set(key, { element: parent, chars: text.length });
      }
      if (options.marginBoxes) result.marginBoxes = hasMarginBoxes();
    }
    // The characters of the text, beyond ASCII (which every system face draws), read at once:
    // the text of a script or style element in the body counts too, but a character that occurs
    // only there is not found in the page's text by the look for missing glyphs, so never reported
    if (options.content) {
      const text = (body || root).textContent.slice(0, options.maxTextChars);
      result.textChars = text.length;
      result.characters = [...new Set(text.match(/[^\\u0000-\\u007F]/gu) || [])].join('');
    }
    result.samples = [...styles.values()].map((sample) => ({ selector: selectorOf(sample.element), chars: sample.chars }));
  } finally {
    if (fitted) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== fitted);
  }

  if (!options.content) return result;
  const images = [...document.images].slice(0, options.maxElements).filter((image) => image.complete && image.naturalWidth === 0 && (image.currentSrc || image.getAttribute('src')));
  for (const image of images.slice(0, options.maxEntries)) {
    // an image with no intrinsic size (an SVG without one) also has naturalWidth 0 but decodes
    const broken = await image.decode().then(() => false, () => true);
    if (broken) result.images.push(image.currentSrc || image.src);
  }

  const failed = [...document.fonts].filter((face) => face.status === 'error').slice(0, options.maxEntries);
  if (failed.length > 0) {
    const sources = new Map();
    const collect = (rules, depth) => {
      for (const rule of rules) {
        if (rule instanceof CSSFontFaceRule) {
          const family = rule.style.getPropertyValue('font-family').trim().replace(/^["']|["']$/g, '');
          const source = /url\\(\\s*["']?([^"')]*)/.exec(rule.style.getPropertyValue('src'));
          if (!sources.has(family)) sources.set(family, []);
          sources.get(family).push(source ? source[1] : '');
        } else if (rule.cssRules && depth < 3) collect(rule.cssRules, depth + 1);
      }
    };
    for (const sheet of document.styleSheets) {
      try { collect(sheet.cssRules, 0); } catch {}
    }
    const used = new Map();
    for (const face of failed) {
      const family = face.family.replace(/^["']|["']$/g, '');
      const urls = sources.get(family) || [];
      const index = used.get(family) || 0;
      used.set(family, index + 1);
      result.fonts.push(urls[index] ?? urls[0] ?? '');
    }
  }
  return result;
}`;

/**
 * For characters no system font covers: whether the font of the element they occur in draws
 * them (a web font may), told apart by drawing each next to a character no font has: the same
 * pixels and advance mean the font fell back to its empty box. Counts each missing one and
 * names the first visible place it occurs.
 */
export const LOCATE_MISSING_GLYPHS = `(options) => {
  ${HELPERS}
  const wanted = new Map(options.characters.map((character) => [character, null]));
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const draw = (character, font) => {
    context.clearRect(0, 0, 64, 64);
    context.font = font;
    context.fillText(character, 8, 48);
    return { width: context.measureText(character).width, pixels: context.getImageData(0, 0, 64, 64).data };
  };
  const same = (a, b) => {
    if (a.width !== b.width) return false;
    for (let index = 0; index < a.pixels.length; index++) if (a.pixels[index] !== b.pixels[index]) return false;
    return true;
  };
  const verdicts = new Map();
  const missingIn = (character, element) => {
    const style = getComputedStyle(element);
    const font = style.fontStyle + ' ' + style.fontWeight + ' 40px ' + style.fontFamily;
    const key = character + '\\u0000' + font;
    if (!verdicts.has(key)) verdicts.set(key, same(draw(character, font), draw(options.noGlyph, font)));
    return verdicts.get(key);
  };
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  let chars = 0;
  for (let node = walker.nextNode(); node && chars < options.maxTextChars; node = walker.nextNode()) {
    const text = node.data;
    if (!/\\S/.test(text) || skipText(node)) continue;
    chars += text.length;
    let offset = 0;
    for (const character of text) {
      if (wanted.has(character)) {
        const parent = node.parentElement;
        if (parent.checkVisibility() && missingIn(character, parent)) {
          const entry = wanted.get(character);
          if (entry) entry.count++;
          else wanted.set(character, { count: 1, selector: selectorOf(parent), context: quote(text.slice(Math.max(0, offset - 50), offset + 50)) });
        }
      }
      offset += character.length;
    }
  }
  return [...wanted].filter(([, entry]) => entry).map(([character, entry]) => ({ character, ...entry }));
}`;
