// Template evaluation is metered per account and served fairly: a flood of renders whose
// template burns its whole work budget is refused with 429 once the account's evaluation
// seconds are spent (it never reaches the render rate limit, since evaluation fails first), and
// another account's previews keep their speed meanwhile.
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount } from './support/api.ts';

/** Runs to the sandbox's work limit (about half a second of evaluation) and fails there. */
const burner = '{% for i in range(100000) %}{% for j in range(100) %}{% endfor %}{% endfor %}';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timedPreviews(key: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await api('/v1/templates/preview', { method: 'POST', key, body: { source: '<h1>{{ title }}</h1>', data: { title: `n${index}` } } });
    times.push(performance.now() - started);
    expect(response.status).toBe(200);
    // previews have a bucket of their own (four a second): stay well under it
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return times;
}

describe('template evaluation budget', () => {
  it("refuses one account's evaluation flood with 429 while another account's previews keep their speed", async () => {
    const flooder = await newAccount({ plan: 'free', credits: 5 });
    const other = await newAccount();
    // warm the path, then the other account's previews on an otherwise idle service
    await timedPreviews(other.apiKey, 3);
    const idleBefore = median(await timedPreviews(other.apiKey, 21));

    const answers: { status: number; code?: string; retryAfter: string | null }[] = [];
    let flooding = true;
    const loops = Array.from({ length: 20 }, async () => {
      while (flooding) {
        const response = await api('/v1/pdf', { method: 'POST', key: flooder.apiKey, body: { html: burner, data: {} } });
        answers.push({ status: response.status, code: response.body?.error?.code, retryAfter: response.headers.get('retry-after') });
      }
    });
    // the flood spends its budget first (what it had admitted runs on one sandbox worker), then
    // goes on at the budget's pace; the other account's previews are measured while it does
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const during = median(await timedPreviews(other.apiKey, 21));
    flooding = false;
    await Promise.all(loops);
    // idle is measured on both sides of the flood, so a machine that got busier meanwhile (other
    // test files, other processes) does not count as the flood's doing
    const idleAfter = median(await timedPreviews(other.apiKey, 11));
    const baseline = Math.max(idleBefore, idleAfter);

    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((answer) => answer.code === 'rate_limited' && Number(answer.retryAfter) >= 1)).toBe(true);
    // what was admitted failed evaluation, and nothing was rendered or spent
    expect(answers.filter((answer) => answer.status !== 429).every((answer) => answer.status === 400 && /^template_(work_limit|timeout)$/.test(answer.code ?? ''))).toBe(true);
    // without the budget every answer was a 400: the account's evaluations are bounded now
    expect(refused.length).toBeGreaterThan(answers.length / 2);
    // Fair turns mean a preview never queues behind the flood's evaluations (each about half a
    // second of sandbox work; served first come, first served, previews waited seconds). What is
    // left is CPU: the flood may use half a core, so on a quiet machine the p50 stays within 2x
    // of idle, while on two cores busy with other work it also shares them; the bound allows
    // that share (half of one burner evaluation) and no queueing.
    expect(during, `preview p50 idle ${idleBefore.toFixed(1)}/${idleAfter.toFixed(1)} ms, during the flood ${during.toFixed(1)} ms`).toBeLessThanOrEqual(2 * baseline + 250);
  }, 180_000);

  it('charges failed evaluations of every path: previews are refused while renders spend the budget', async () => {
    const account = await newAccount();
    // renders that fail evaluation (each about half a second of sandbox work), four at a time
    let stop = false;
    let failed = 0;
    const lanes = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const response = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: burner, data: {} } });
        if (response.status === 429) continue;
        // a loaded machine may reach the wall-clock limit before the work limit
        expect([response.status, response.body?.error?.code]).toEqual([400, expect.stringMatching(/^template_(work_limit|timeout)$/)]);
        failed += 1;
      }
    });
    // meanwhile previews of the same account (in their own preview bucket) find the evaluation budget spent
    const previews: Awaited<ReturnType<typeof api>>[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && !previews.some((answer) => answer.status === 429)) {
      previews.push(await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: 'x', data: {} } }));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    stop = true;
    await Promise.all(lanes);
    expect(failed).toBeGreaterThan(0);
    const refused = previews.find((answer) => answer.status === 429)!;
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.retry?.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
