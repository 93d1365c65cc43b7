import { listStarters } from '@svc/core';
import { computePublicStats } from '../packages/core/src/status/get-public-stats.ts';
import { recordHeartbeat } from '../packages/core/src/status/record-heartbeat.ts';
import { describe, expect, it } from 'vitest';
import { api, serviceContext, serviceDb } from './support/api.ts';
import { svc } from './support/cli.ts';


describe('GET /v1/public-stats', () => {
  it('answers without auth, cached five minutes, with the PublicStats shape', async () => {
    const response = await api('/v1/public-stats');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Object.keys(response.body).sort()).toEqual(['gallery_templates', 'renders_served', 'status', 'uptime_days', 'uptime_percent']);
    // the starter gallery of the dashboard: at least six templates a user can copy
    expect(response.body.gallery_templates).toBe(listStarters().length);
    expect(response.body.gallery_templates).toBeGreaterThanOrEqual(6);
    expect(response.body.renders_served).toBeGreaterThanOrEqual(0);
    // the web process and the worker have each recorded a heartbeat for this run
    const components = await serviceDb().heartbeat.findMany({ distinct: ['component'], select: { component: true } });
    expect(components.map((row) => row.component).sort()).toEqual(['web', 'worker']);
  });

  it('computes uptime over recorded minutes, null with too little data, and the status from heartbeats and the switch', async () => {
    const ctx = serviceContext();
    const db = serviceDb();
    const fresh = await computePublicStats(ctx);
    expect(['operational', 'degraded']).toContain(fresh.status);

    // two hours of history with one minute missing its worker: 120 of 121 recorded minutes up
    const now = Date.now();
    const start = Math.floor(now / 60_000) * 60_000 - 120 * 60_000;
    await db.heartbeat.deleteMany({});
    const rows = [];
    for (let minute = start; minute <= start + 120 * 60_000; minute += 60_000) {
      rows.push({ component: 'web', minute: new Date(minute) });
      if (minute !== start + 30 * 60_000) rows.push({ component: 'worker', minute: new Date(minute) });
    }
    await db.heartbeat.createMany({ data: rows });
    const stats = await computePublicStats({ ...ctx, clock: () => new Date(start + 120 * 60_000 + 1000) });
    expect(stats.uptimePercent).toBeCloseTo((120 / 121) * 100, 2);
    expect(stats.uptimeDays).toBe(0);

    // under an hour of data: null
    const early = await computePublicStats({ ...ctx, clock: () => new Date(start + 1000) });
    expect(early.uptimePercent).toBeNull();

    // no worker heartbeat for over three minutes: downtime
    const later = await computePublicStats({ ...ctx, clock: () => new Date(start + 130 * 60_000) });
    expect(later.status).toBe('downtime');

    expect((await svc(['status', 'maintenance', 'on', '--json'])).code).toBe(0);
    expect((await computePublicStats(ctx)).status).toBe('maintenance');
    expect((await svc(['status', 'maintenance', 'off'])).code).toBe(0);
    await recordHeartbeat(ctx, 'worker');
    expect((await computePublicStats(ctx)).status).not.toBe('maintenance');
  }, 120_000);

  it('reports unavailable, not an error, when the database does not answer', async () => {
    const broken = { ...serviceContext(), db: { $queryRaw: () => Promise.reject(new Error('down')), serviceSetting: { findUnique: () => Promise.reject(new Error('down')) } } } as never;
    expect(await computePublicStats(broken)).toEqual({ rendersServed: 0, galleryTemplates: listStarters().length, uptimePercent: null, uptimeDays: 0, status: 'unavailable' });
  });
});
