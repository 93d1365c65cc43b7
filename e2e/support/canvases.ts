// Canvas sources of the four kinds adapt handles (normal flow, flex, grid, positioned), the
// sizes they are adapted to, and the in-browser measurement of an adapted document's pages.

const head = (style: string) =>
  `<!DOCTYPE html><html><head><meta name="svc-canvas" content="1080x1080"><style>html, body { margin: 0 } ${style}</style></head>`;

export const adaptCanvases: Record<string, string> = {
  flow: `${head('.page { width: 1080px; height: 1080px; padding: 80px; box-sizing: border-box; overflow: hidden; font-family: DejaVu Sans; background: #fff }')}
<body><section class="page" data-svc-page="flow">
<h1 style="font-size: 96px; margin: 0 0 40px">Spring launch week</h1>
<p style="font-size: 40px; line-height: 1.3">Five days of new features, live demos and a question hour with the people who built them.</p>
<p style="font-size: 32px">Join us from Monday, nine o'clock.</p>
</section></body></html>`,
  flex: `${head('.page { width: 1080px; height: 1080px; display: flex; flex-direction: column; justify-content: space-between; padding: 60px; box-sizing: border-box; overflow: hidden; font: 36px DejaVu Sans }')}
<body><div class="page" data-svc-page="cover"><header style="font-size: 48px; font-weight: bold">Northwind Coffee</header>
<main style="display: flex; gap: 40px"><div style="flex: 1; font-size: 72px">Fresh roasts every morning</div><div style="flex: 1">Single origin beans, roasted in small batches and delivered the same day.</div></main>
<footer>northwind.example</footer></div>
<div class="page" data-svc-page="menu"><header style="font-size: 64px">Menu</header><main>Espresso, flat white, cortado, filter of the day, cold brew</main><footer>Open daily</footer></div></body></html>`,
  grid: `${head('.page { width: 1080px; height: 1080px; display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: auto 1fr 1fr; gap: 30px; padding: 50px; box-sizing: border-box; overflow: hidden; font: 34px DejaVu Sans } .card { background: #eef; padding: 30px } h2 { grid-column: 1 / 3; margin: 0; font-size: 70px }')}
<body><div class="page" data-svc-page="stats"><h2>Quarter in numbers</h2>
<div class="card">Orders grew by a third over the spring months</div><div class="card">Returns fell to one in forty</div>
<div class="card">Two new warehouses opened</div><div class="card">Delivery takes two days on average</div></div></body></html>`,
  positioned: `${head('.page { position: relative; width: 1080px; height: 1080px; background: #fff; overflow: hidden; font-family: DejaVu Sans }')}
<body><div class="page" data-svc-page="poster">
<div style="position: absolute; left: 0px; top: 0px; width: 1080px; height: 120px; background: #00ff00"></div>
<div style="position: absolute; left: 40px; top: 200px; width: 200px; height: 200px; background: #ff0000"></div>
<div style="position: absolute; right: 40px; bottom: 40px; width: 200px; height: 200px; background: #0000ff"></div>
<h1 style="position: absolute; left: 290px; top: 400px; width: 500px; height: 200px; margin: 0; font-size: 64px">Grand opening</h1>
</div></body></html>`,
};

export const adaptSizes = [
  { width: 1080, height: 1920 },
  { width: 1920, height: 1080 },
  { width: 1200, height: 628 },
  { width: 400, height: 1200 },
];

/**
 * In-page source (runs in the document, with or without script): for each canvas page its id,
 * size, text, and the text found outside the page or outside a clipping ancestor.
 */
export const measurePages = `[...document.querySelectorAll('[data-svc-page]')].map((element) => {
      const box = element.getBoundingClientRect();
      const outside = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.data.trim()) continue;
        const clips = [box];
        for (let parent = node.parentElement; parent && parent !== element; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          if (style.overflowX !== 'visible' || style.overflowY !== 'visible') clips.push(parent.getBoundingClientRect());
        }
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          if (clips.some((clip) => rect.left < clip.left - 1 || rect.top < clip.top - 1 || rect.right > clip.right + 1 || rect.bottom > clip.bottom + 1)) outside.push(node.data.trim());
        }
      }
      return { id: element.getAttribute('data-svc-page'), width: box.width, height: box.height, text: element.textContent.replace(/\\s+/g, ' ').trim(), outside };
    })`;

export interface MeasuredPage {
  id: string;
  width: number;
  height: number;
  text: string;
  outside: string[];
}
