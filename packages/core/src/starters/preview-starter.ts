import type { ServiceContext } from '../shared/context.ts';
import { evaluateSource } from '../templates/evaluate-source.ts';
import { findStarter, listStarters } from './list-starters.ts';
import type { Starter } from './starter.ts';

const evaluated = new Map<string, Promise<string>>();

/**
 * A starter's HTML with its sample data, for the gallery's thumbnails. Starters are fixed
 * content, so each is evaluated once per process.
 */
export function previewStarter(ctx: ServiceContext, starter: Starter): Promise<string> {
  let html = evaluated.get(starter.id);
  if (!html) {
    html = evaluateSource(ctx.metrics, { source: starter.source, data: starter.sampleData, sourceField: 'source' });
    html.catch(() => evaluated.delete(starter.id));
    evaluated.set(starter.id, html);
  }
  return html;
}

/**
 * The sample data of the starter a template was copied from, while its source is still the
 * starter's: what the editor fills its data panel with. Any other source starts with {}.
 */
export function starterSampleData(source: string, starterId?: string): Record<string, unknown> {
  const starter = (starterId ? findStarter(starterId) : undefined) ?? listStarters().find((candidate) => candidate.source === source);
  return starter && starter.source === source ? structuredClone(starter.sampleData) : {};
}
