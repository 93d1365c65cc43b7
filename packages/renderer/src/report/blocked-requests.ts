// The network guard's refusals as the render report names them: the URL as the document wrote
// it and the rule that refused it (contracts' resourceBlockRules).
import { maxReportUrlChars, type ReportProblem, type resourceBlockRules } from '@svc/contracts';
import { assetReferenceAsWritten } from '../page/page-resource-policy.ts';

type BlockRule = (typeof resourceBlockRules)[number];

/** What a layer of the sandbox saw, with the URL when the layer knows it (see browser/violations.ts). */
export interface RefusedRequest {
  code: 'blocked_request' | 'unknown_asset';
  layer: string;
  kind: string;
  url?: string;
  /** the request's resource type where it differs from kind */
  resourceType?: string;
}

const WORKERS = new Set(['worker', 'service_worker', 'shared_worker']);
const SOCKETS = new Set(['websocket', 'webtransport']);

function ruleOf({ layer, kind, url }: RefusedRequest): BlockRule {
  if (layer === 'resource_hint') return 'resource_hint';
  if (kind === 'local_resource' || /^file:/i.test(url ?? '')) return 'local_file';
  if (WORKERS.has(kind)) return 'worker';
  if (SOCKETS.has(kind)) return 'websocket';
  if (kind === 'popup' || (layer === 'target' && kind === 'page')) return 'popup';
  // a frame's document or the page navigating away
  if (kind === 'document') return 'navigation';
  return 'network';
}

/** A URL as the report quotes it: asset references in their asset:// form, cut past maxReportUrlChars. */
export function reportUrl(url: string): string {
  const written = assetReferenceAsWritten(url);
  return written.length > maxReportUrlChars ? `${written.slice(0, maxReportUrlChars)}…` : written;
}

export function refusedRequestProblem(refused: RefusedRequest): ReportProblem {
  const url = reportUrl(refused.url ?? '');
  const resourceType = (refused.resourceType ?? refused.kind).slice(0, 40);
  if (refused.code === 'unknown_asset') return { type: 'resource_failed', url, reason: 'asset_not_found', resource_type: resourceType };
  return { type: 'resource_blocked', url, rule: ruleOf(refused), resource_type: resourceType };
}
