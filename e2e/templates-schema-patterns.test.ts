// Schema checks cannot stall the web process: a saved schema's patterns run in a linear-time
// engine (RE2), so a pattern that backtracks catastrophically in JavaScript answers its data
// error at once, and a flood of such checks from an account without credits leaves another
// account's requests as fast as idle. Patterns RE2 cannot run are refused when saved.
import { describe, expect, it } from 'vitest';
import { api, baseUrl, expectError, newAccount } from './support/api.ts';
import { createGroup, newTemplate } from './support/groups.ts';

const schema = { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
// backtracking tries about 2^32 ways to split the a's before it gives up on the '!'
const data = { code: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Another account's cheap requests, one after another: GET /v1/me and the web process's /healthz. */
async function timedProbes(key: string, count: number): Promise<{ me: number; health: number }> {
  const me: number[] = [];
  const health: number[] = [];
  for (let index = 0; index < count; index += 1) {
    let started = performance.now();
    const read = await api('/v1/me', { key });
    me.push(performance.now() - started);
    expect(read.status).toBe(200);
    started = performance.now();
    const probe = await fetch(`${baseUrl()}/healthz`);
    await probe.arrayBuffer();
    health.push(performance.now() - started);
    expect(probe.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { me: median(me), health: median(health) };
}

describe('schema patterns', () => {
  it("answers a catastrophic pattern's data error at once, and a flood of them leaves another account's requests as fast as idle", async () => {
    const flooder = await newAccount({ plan: 'free', credits: 0 });
    const other = await newAccount();
    const template = await newTemplate(flooder.apiKey, { name: 'Codes', source: '<p>{{ code }}</p>', schema });

    // one of each, answered with the data error (the batch: 402 before any row is looked at)
    const single = await api('/v1/pdf', { method: 'POST', key: flooder.apiKey, body: { template_id: template.id, data } });
    expect(expectError(single, 400, 'template_data_invalid').details).toEqual([{ field: 'data/code', reason: 'Use the required format.' }]);
    const preview = await api('/v1/templates/preview', { method: 'POST', key: flooder.apiKey, body: { source: '<p>{{ code }}</p>', data, schema } });
    expectError(preview, 400, 'template_data_invalid');
    expectError(await createGroup('batches', flooder.apiKey, { template_id: template.id, format: 'pdf', rows: Array.from({ length: 10 }, () => data) }), 402, 'insufficient_credits');

    await timedProbes(other.apiKey, 3);
    const idleBefore = await timedProbes(other.apiKey, 21);

    const answers: { status: number; code?: string }[] = [];
    let flooding = true;
    const requests = [
      () => api('/v1/templates/preview', { method: 'POST', key: flooder.apiKey, body: { source: '<p>{{ code }}</p>', data, schema } }),
      () => api('/v1/pdf', { method: 'POST', key: flooder.apiKey, body: { template_id: template.id, data } }),
      () => api('/v1/image', { method: 'POST', key: flooder.apiKey, body: { template_id: template.id, data, image: { format: 'png' } } }),
      () => createGroup('batches', flooder.apiKey, { template_id: template.id, format: 'pdf', rows: Array.from({ length: 10 }, () => data) }),
    ];
    // one loop of each kind (four, as a client with four connections), none waiting its Retry-After
    const loops = requests.map(async (request) => {
      while (flooding) {
        const response = await request();
        answers.push({ status: response.status, code: response.body?.error?.code });
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const during = await timedProbes(other.apiKey, 21);
    flooding = false;
    await Promise.all(loops);
    const idleAfter = await timedProbes(other.apiKey, 11);

    // every answer is a refusal the contract names, never a 500: the data error, no credit, or a spent budget
    const kinds = new Set(answers.map((answer) => `${answer.status} ${answer.code}`));
    expect([...kinds].filter((kind) => !['400 template_data_invalid', '402 insufficient_credits', '429 rate_limited'].includes(kind))).toEqual([]);
    expect(answers.length).toBeGreaterThan(8);

    // Each of the flood's checks is a few microseconds of RE2; with backtracking each held the
    // event loop for the 1 s bound, and another account's requests waited about that long. What
    // is left is the flood's ordinary handling (a few database round trips per answer), which a
    // probe may queue behind, four requests deep: within 2x of idle, plus the allowance the
    // evaluation budget's flood test gives a machine busy with other work (250 ms, a quarter of
    // what one backtracking check held). Idle is measured on both sides of the flood, so a
    // machine that got busier meanwhile does not count as the flood's doing.
    const baseline = { me: Math.max(idleBefore.me, idleAfter.me), health: Math.max(idleBefore.health, idleAfter.health) };
    const report = `idle ${JSON.stringify(idleBefore)} / ${JSON.stringify(idleAfter)}, during ${JSON.stringify(during)}, ${answers.length} flood answers: ${[...kinds].join(', ')}`;
    expect(during.me, report).toBeLessThanOrEqual(2 * baseline.me + 250);
    expect(during.health, report).toBeLessThanOrEqual(2 * baseline.health + 250);
  }, 180_000);

  it('refuses a pattern the linear engine cannot run (a backreference, a lookahead) when the template is saved', async () => {
    const account = await newAccount();
    for (const pattern of ['^(a+)\\1$', '^(?=a)\\w+$']) {
      const refused = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>x</p>', schema: { type: 'object', properties: { code: { type: 'string', pattern } } } } });
      expect(expectError(refused, 400, 'template_schema_complexity').details).toEqual([{ field: 'schema/properties/code/pattern', reason: 'invalid value' }]);
    }
    const template = await newTemplate(account.apiKey, { source: '<p>x</p>' });
    const version = await api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body: { source: '<p>y</p>', schema: { patternProperties: { '(?<=x)y': {} } } } });
    expect(expectError(version, 400, 'template_schema_complexity').details).toEqual([{ field: 'schema/patternProperties', reason: 'invalid value' }]);
  });
});
