import { buildOpenApiDocument, getOpenApiOperation, getPublicStatsOperation, operations } from '@svc/contracts';
import { getPublicStats, publicStatsCacheMs } from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const publicHandlers = {
  getOpenApi: handle(getOpenApiOperation, async ({ ctx }) => {
    // the address the service answers on, so the requests a reader copies from /docs work as pasted
    document ??= buildOpenApiDocument(operations, { serverUrl: ctx.config.publicUrl });
    return { status: 200, body: document, headers: { 'cache-control': 'public, max-age=300' } };
  }),

  getPublicStats: handle(getPublicStatsOperation, async ({ ctx }) => {
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
  }),
} satisfies Partial<OperationHandlers>;
