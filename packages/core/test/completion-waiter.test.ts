// The completion waiter on a real PostgreSQL: a watch made before a job exists hears its end
// without asking the database first, and asks when its listening connection was replaced.
import pg from 'pg';
import { silentLogger } from '@svc/core';
import { afterAll, describe, expect, it } from 'vitest';
import { PgCompletionWaiter } from '../src/renders/completion-waiter.ts';
import { renderFinishedChannel } from '../src/ports/completion-waiter.ts';
import { useTestContext } from './support.ts';

const test = useTestContext();
const waiters: PgCompletionWaiter[] = [];
afterAll(() => Promise.all(waiters.map((waiter) => waiter.close())));

async function announce(jobId: string) {
  const client = new pg.Client({ connectionString: test.url() });
  await client.connect();
  await client.query('SELECT pg_notify($1, $2)', [renderFinishedChannel, jobId]);
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

  it('answers what a notice carried after the job id, and wakes only that job', async () => {
    const waiter = newWaiter();
    const [watched, other] = [await waiter.watch('pdf_carried'), await waiter.watch('pdf_carried2')];
    const waiting = watched.wait(60_000, async () => false);
    await announce('pdf_carried {"id":"pdf_carried","note":"a b ✓"}');
    expect(await waiting).toBe('{"id":"pdf_carried","note":"a b ✓"}');
    other.cancel();
  });

  it('asks whether the job ended when the connection it listened on was lost after the watch began', async () => {
    const waiter = newWaiter();
    const watch = await waiter.watch('pdf_lost');
    // the server ends the listening connection: a notice sent meanwhile would be lost
    const admin = new pg.Client({ connectionString: test.url() });
    await admin.connect();
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN ${renderFinishedChannel}%' AND pid <> pg_backend_pid() AND datname = current_database()`);
    await admin.end();
    await expect.poll(() => (waiter as unknown as { client: unknown }).client, { timeout: 30_000, interval: 50 }).toBeNull();
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
