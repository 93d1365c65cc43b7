import type { RenderReport } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { type GetRenderOptions, findOwnedRender } from './get-render.ts';
import { reportOf } from './render-report.ts';

export type GetRenderReportOptions = GetRenderOptions;

/**
 * The render report of an owned job (GET /v1/{kind}/{id}/report, the dashboard's render page).
 * Malformed, foreign and missing ids are the same 404; a job that has not finished answers its
 * status with empty lists and nulls (docs/render-report.md).
 */
export async function getRenderReport(ctx: ServiceContext, options: GetRenderReportOptions): Promise<RenderReport> {
  return reportOf(await findOwnedRender(ctx, options));
}
