import { z } from 'zod';
import { NoQuery } from './common.ts';
import { defineOperation } from './operation.ts';
import { named } from './registry.ts';

export const PublicStats = named(
  'PublicStats',
  z.strictObject({
    renders_served: z.int().min(0).meta({ description: 'Succeeded renders, all accounts.' }),
    gallery_templates: z.int().min(0).meta({ description: 'Templates in the public starter gallery.' }),
    uptime_percent: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .meta({ description: 'Share of the minutes of the last 90 days (since heartbeats began) in which web and worker were alive; null with under an hour of data.' }),
    uptime_days: z.int().min(0).meta({ description: 'Whole days the uptime figure covers.' }),
    status: z.enum(['operational', 'degraded', 'downtime', 'maintenance', 'unavailable']),
  }),
);
export type PublicStats = z.infer<typeof PublicStats>;

export const getPublicStatsOperation = defineOperation({
  operationId: 'getPublicStats',
  method: 'get',
  path: '/v1/public-stats',
  tag: 'Public',
  summary: 'Measured public statistics (cached five minutes)',
  auth: 'none',
  query: NoQuery,
  responses: { 200: { description: 'The statistics', schema: PublicStats } },
  errors: [],
});
