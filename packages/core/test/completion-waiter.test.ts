// The completion waiter on a real PostgreSQL: a watch made before a job exists hears its end
// without asking the database first, and asks when its listening connection was replaced;
// adapt answers come on a channel of their own.
import type { Listener } from '@svc/db';
import pg from 'pg';
import { silentLogger } from '@svc/core';
import { afterAll, describe, expect, it } from 'vitest';
import { PgCompletionWaiter } from '../src/renders/completion-waiter.ts';
import { adaptAnsweredChannel, renderFinishedChannel } from '../src/ports/completion-waiter.ts';
import { useTestContext } from './support.ts';

const test = useTestContext();
const waiters: PgCompletionWaiter[] = [];
afterAll(() => Promise.all(waiters.map((waiter) => waiter.close())));

async function announce(payload: string, channel = renderFinishedChannel) {
  const client = new pg.Client({ connectionString: test.url() });
  await client.connect();
  await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
  await client.end();
}

function newWaiter() {
  const waiter = new PgCompletionWaiter(test.url(), silentLogger);
  waiters.push(waiter);
  return waiter;
}

describe('completion waiter', () => {
  it('wakes a watch made before the job existed on its notice, without asking whether it ended', async () => {
    const waiter = newWaiter();
    const watch = await waiter.watch('pdf_watched');
    let asked = 0;
    const waiting = watch.wait(60_000, async () => (asked++, false));
    await announce('pdf_watched');
    expect(await waiting).toBeNull();
    expect(asked).toBe(0);
  });

  it('answers the finished job a notice carried after the job id, its times as times, and wakes only that job', async () => {
    const waiter = newWaiter();
    const [watched, other] = [await waiter.watch('pdf_carried'), await waiter.watch('pdf_carried2')];
    const waiting = watched.wait(60_000, async () => false);
    await announce('pdf_carried {"id":"pdf_carried","reference":"a b ✓","finishedAt":"2026-01-02T03:04:05.678+00:00","hiddenAt":null}');
    expect(await waiting).toEqual({ id: 'pdf_carried', reference: 'a b ✓', finishedAt: new Date('2026-01-02T03:04:05.678Z'), hiddenAt: null });
    other.cancel();
  });

  it("wakes an adapt request's wait on the adapt channel only", async () => {
    const waiter = newWaiter();
    let asked = 0;
    let answered = false;
    const waiting = waiter.waitForAdapt('adapt_answered1', 60_000, async () => (asked++, false)).then(() => (answered = true));
    // a render's notice under the same id is not the adapt request's answer: the wait goes on polling
    await announce('adapt_answered1');
    await expect.poll(() => asked, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    expect(answered).toBe(false);
    await announce('adapt_answered1', adaptAnsweredChannel);
    await waiting;
    expect(answered).toBe(true);
  });

  it('asks whether the job ended when the connection it listened on was lost after the watch began', async () => {
    const waiter = newWaiter();
    const watch = await waiter.watch('pdf_lost');
    // the server ends the listening connection: a notice sent meanwhile would be lost
    const admin = new pg.Client({ connectionString: test.url() });
    await admin.connect();
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN ${renderFinishedChannel}%' AND pid <> pg_backend_pid() AND datname = current_database()`);
    await admin.end();
    await expect.poll(() => (waiter as unknown as { listener: Listener }).listener.connection, { timeout: 30_000, interval: 50 }).toBeNull();
    let asked = 0;
    await watch.wait(60_000, async () => (asked++, true));
    expect(asked).toBe(1);
  });

  it('asks once first when waiting for a job that may have ended before the wait', async () => {
    const waiter = newWaiter();
    let asked = 0;
    await waiter.wait('pdf_done', 60_000, async () => (asked++, true));
    expect(asked).toBe(1);
  });
});
