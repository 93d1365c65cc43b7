// The report cell: what looking at each page for the render report costs. Two renderers in
// this process, one inspecting pages (the service's default) and one not, render the same
// fixtures one after the other in turn (so a busy moment of the machine falls on both), with
// a warm sandbox of one account and the provenance stamp, as the service renders an account's jobs.
import type { RenderPdfInput } from '@svc/contracts';
import { Renderer } from '@svc/renderer';
import { viewportDefaults } from '@svc/rules';
import type { Fixture } from './fixtures.ts';
import { percentile } from './stats.ts';

const runs = Number(process.env.BENCH_REPORT_RUNS ?? 30);
const warmup = 5;

function render(renderer: Renderer, fixture: Fixture) {
  // every job of the service records where its file came from
  const provenance = { job_id: 'job_0123456789abcdef0123456789abcdef' };
  const common = { account: 'bench', html: fixture.html, javascript: 'disabled' as const, provenance };
  if (fixture.kind === 'image') return renderer.renderImage({ ...common, image: { format: 'png', width: 1280, height: 720 } });
  const input: RenderPdfInput = { ...common, pdf: { format: 'A4', print_background: true }, viewport: { ...viewportDefaults } };
  return renderer.renderPdf(input);
}

async function timed(renderer: Renderer, fixture: Fixture): Promise<number> {
  const started = performance.now();
  await render(renderer, fixture);
  return performance.now() - started;
}

export async function reportCell(fixtures: Fixture[]): Promise<void> {
  const [inspecting, plain] = await Promise.all([
    Renderer.start({ concurrency: 1, warmSandboxes: 2 }),
    Renderer.start({ concurrency: 1, warmSandboxes: 2, inspectPages: false }),
  ]);
  try {
    console.log(`Render report cost: ${runs} renders each with and without the page inspection, in turn, concurrency 1, in-process renderer; medians in ms.`);
    console.log('fixture                  |  with  without   cost  ratio | p95 with p95 without');
    for (const fixture of fixtures) {
      const withTimes: number[] = [];
      const withoutTimes: number[] = [];
      for (let index = 0; index < warmup + runs; index++) {
        // alternate which goes first, so neither always follows the other
        let withTime: number;
        let withoutTime: number;
        if (index % 2 === 0) {
          withTime = await timed(inspecting, fixture);
          withoutTime = await timed(plain, fixture);
        } else {
          withoutTime = await timed(plain, fixture);
          withTime = await timed(inspecting, fixture);
        }
        if (index < warmup) continue;
        withTimes.push(withTime);
        withoutTimes.push(withoutTime);
      }
      withTimes.sort((a, b) => a - b);
      withoutTimes.sort((a, b) => a - b);
      const withP50 = percentile(withTimes, 0.5);
      const withoutP50 = percentile(withoutTimes, 0.5);
      console.log(
        `${fixture.name.padEnd(24)} |${withP50.toFixed(1).padStart(6)} ${withoutP50.toFixed(1).padStart(8)} ${(withP50 - withoutP50).toFixed(1).padStart(6)} ${(withP50 / withoutP50).toFixed(2).padStart(6)} |` +
          `${percentile(withTimes, 0.95).toFixed(1).padStart(9)} ${percentile(withoutTimes, 0.95).toFixed(1).padStart(11)}`,
      );
    }
  } finally {
    await Promise.all([inspecting.close(), plain.close()]);
  }
}
