// Idempotency keys and retries against the real service: a retried create call carries the key
// of its first attempt, so the service replays the job instead of rendering and charging twice.
import { describe, expect, it } from 'vitest';
import { baseUrl, emptyBucket, newAccount } from '../../../e2e/support/api.ts';
import { freePort } from '../../../e2e/support/global-setup.ts';
import { createRenderingClient, type FetchLike, type RenderingClient, RenderingApiError } from '../src/index.ts';

interface Sent {
  method: string;
  key: string | null;
  status: number | 'network error';
}

/** Sends to the real service and records each attempt; `loseAnswer` decides which answers never arrive. */
function recordingTransport(loseAnswer: (sent: Sent, earlier: readonly Sent[]) => boolean = () => false) {
  const sent: Sent[] = [];
  const lostBodies: unknown[] = [];
  const transport: FetchLike = async (request) => {
    const key = request.headers.get('idempotency-key');
    const response = await fetch(request);
    const entry: Sent = { method: request.method, key, status: response.status };
    sent.push(entry);
    if (loseAnswer(entry, sent.slice(0, -1))) {
      // the service did the work; only its answer is lost on the way back, as on a dropped connection
      lostBodies.push(await response.json());
      entry.status = 'network error';
      throw new TypeError('fetch failed');
    }
    return response;
  };
  return { sent, lostBodies, transport };
}

async function creditsLeft(rendering: RenderingClient): Promise<number> {
  const { data } = await rendering.api.GET('/v1/me');
  return Object.values(data!.balances).reduce((sum, credits) => sum + credits, 0);
}

const posts = (sent: readonly Sent[]) => sent.filter((entry) => entry.method === 'POST');

describe('idempotency keys', () => {
  it('retries a create call whose answer was lost with the same key: one job, one credit', async () => {
    const account = await newAccount({ credits: 10 });
    const { sent, lostBodies, transport } = recordingTransport((entry, earlier) => entry.method === 'POST' && posts(earlier).length === 0);
    const rendering = createRenderingClient({ apiKey: account.apiKey, baseUrl: baseUrl(), fetch: transport, retries: { initialDelayMs: 50 } });
    const before = await creditsLeft(rendering);

    const job = await rendering.renderPdf({ html: '<p>exactly once</p>' });

    expect(job.status).toBe('succeeded');
    const [lost, retried] = posts(sent);
    expect(lost!.status).toBe('network error');
    expect(retried!.status).toBe(200);
    expect(lost!.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(retried!.key).toBe(lost!.key);
    expect(job.id).toBe((lostBodies[0] as { id: string }).id);
    expect(await creditsLeft(rendering)).toBe(before - 1);
    const history = await rendering.api.GET('/v1/pdf', { params: { query: {} } });
    expect(history.data!.items.map((item) => item.id)).toEqual([job.id]);
  });

  it('retries a 429 after its Retry-After with the same key', async () => {
    const account = await newAccount({ credits: 10 });
    const { sent, transport } = recordingTransport();
    const rendering = createRenderingClient({ apiKey: account.apiKey, baseUrl: baseUrl(), fetch: transport });
    await emptyBucket('render_creation', account);

    const job = await rendering.renderImage({ html: '<p>after the wait</p>', image: { format: 'png' } });

    expect(job.status).toBe('succeeded');
    const attempts = posts(sent);
    expect(attempts[0]!.status).toBe(429);
    expect(attempts.at(-1)!.status).toBe(200);
    expect(new Set(attempts.map((attempt) => attempt.key)).size).toBe(1);
  });

  it('gives every call its own key, and replays the job of a key the caller passes', async () => {
    const account = await newAccount({ credits: 10 });
    const { sent, transport } = recordingTransport();
    const rendering = createRenderingClient({ apiKey: account.apiKey, baseUrl: baseUrl(), fetch: transport });
    const before = await creditsLeft(rendering);

    const one = await rendering.renderPdf({ html: '<p>same body</p>' });
    const two = await rendering.renderPdf({ html: '<p>same body</p>' });
    expect(two.id).not.toBe(one.id);
    const [firstKey, secondKey] = posts(sent).map((attempt) => attempt.key);
    expect(firstKey).not.toBe(secondKey);

    const order = await rendering.renderPdf({ html: '<p>order 981</p>' }, { idempotencyKey: 'order-981' });
    const replay = await rendering.renderPdf({ html: '<p>order 981</p>' }, { idempotencyKey: 'order-981' });
    expect(replay.id).toBe(order.id);
    expect(posts(sent).slice(-2).map((attempt) => attempt.key)).toEqual(['order-981', 'order-981']);
    expect(await creditsLeft(rendering)).toBe(before - 3);

    const conflict = await rendering.renderPdf({ html: '<p>another order</p>' }, { idempotencyKey: 'order-981' }).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(RenderingApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });
});

describe('retries', () => {
  it('stop after maxRetries, and a create call without Idempotency-Key is sent once', async () => {
    // a port just released, where nothing listens: every attempt is a real connection failure
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const attempts: string[] = [];
    const counting: FetchLike = (request) => {
      attempts.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('idempotency-key') ? 'keyed' : 'unkeyed'}`);
      return fetch(request);
    };
    const rendering = createRenderingClient({ apiKey: 'svc_sk_v1_x', baseUrl: unreachable, fetch: counting, retries: { maxRetries: 2, initialDelayMs: 10 } });

    await expect(rendering.renderPdf({ html: '<p>x</p>' })).rejects.toThrow(TypeError);
    expect(attempts).toEqual(Array(3).fill('POST /v1/pdf keyed'));

    attempts.length = 0;
    await expect(rendering.api.POST('/v1/keys', { body: { name: 'ci' } })).rejects.toThrow(TypeError);
    expect(attempts).toEqual(['POST /v1/keys unkeyed']);
  });
});
