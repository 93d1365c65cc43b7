import { getPublicStatsOperation } from '@svc/contracts';
import { getPublicStats, publicStatsCacheMs } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';

export const GET = handle(getPublicStatsOperation, async ({ ctx }) => {
  const stats = await getPublicStats(ctx);
  return {
    status: 200,
    body: {
      renders_served: stats.rendersServed,
      gallery_templates: stats.galleryTemplates,
      uptime_percent: stats.uptimePercent,
      uptime_days: stats.uptimeDays,
      status: stats.status,
    },
    headers: { 'cache-control': `public, max-age=${publicStatsCacheMs / 1000}` },
  };
});
