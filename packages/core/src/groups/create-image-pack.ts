import { canvasHeight, canvasWidth, type ImagePackCreate, type ImagePackPreset, imagePackPresets } from '@svc/contracts';
import { imageDefaults } from '@svc/rules';
import type { Principal } from '../auth/principal.ts';
import { refuseUnlessCreditsCover } from '../renders/refuse-uncovered-work.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { adaptSource } from '../templates/adapt-template.ts';
import { readCanvas } from '../templates/canvas.ts';
import { resolveTemplateVersion, type ResolvedTemplateVersion } from '../templates/resolve-template-version.ts';
import { dataForSize } from '../templates/saved-render-input.ts';
import { type CreateGroupResult, createRenderGroup, openGroupRequest, type PlannedMember, takeGroupCreationToken } from './create-render-group.ts';
import { evaluateMember, mapBounded, memberOptions, meterMembers, validateMemberData } from './member-input.ts';

export interface CreateImagePackOptions {
  principal: Principal;
  request: ImagePackCreate;
  idempotencyKey: string | null;
}

/** A requested size: the source to evaluate at it, or one still to adapt from the version's source. */
type SizePlan = { sizeId: string; name: string; width: number; height: number } & (
  | { source: string; data: Record<string, unknown>; overrides?: Record<string, unknown> }
  | { adapt: true }
  | { errorCode: string }
);

/**
 * An image pack (the contract's groups and their routes): one image job per size. original renders the version's own
 * canvas; a saved size id its saved source with its data_overrides merged over data; a
 * preset slug or WIDTHxHEIGHT the version's source adapted to that size. A size that cannot
 * be adapted fails at once with its code, with no job and no credit, while the others run.
 * Adapting lays sizes out in a worker's browser before any member is admitted, so the render
 * creation token is taken first, and the account must hold a credit for every size that
 * would render (402 insufficient_credits) before anything is validated, laid out or evaluated.
 */
export async function createImagePack(ctx: ServiceContext, { principal, request, idempotencyKey }: CreateImagePackOptions): Promise<CreateGroupResult> {
  const { group, replay } = await openGroupRequest(ctx, { principal, kind: 'image_pack', request, idempotencyKey });
  if (replay) return replay;
  const { resolved } = group;

  const data = request.data ?? {};
  const plans = request.sizes.map((sizeId, index) => planSize(resolved, sizeId, index, data));
  await takeGroupCreationToken(ctx, group);
  const billable = plans.filter((plan) => !('errorCode' in plan)).length;
  await refuseUnlessCreditsCover(ctx.db, { principal, credits: billable, now: ctx.clock() });
  const brand = await selectBrandValues(ctx.db, { accountId: principal.accountId, requested: undefined, source: resolved.source, sourceField: 'template_id' });
  await validateMemberData(ctx.metrics, resolved.schema, [{ data, field: 'data' }], brand);

  const toAdapt = plans.filter((plan) => 'adapt' in plan);
  const adapted = toAdapt.length > 0 ? await adaptSource(ctx, resolved.source, toAdapt.map(({ width, height }) => ({ width, height })), principal.accountId) : [];
  const ready = plans.map((plan): SizePlan => {
    if (!('adapt' in plan)) return plan;
    const outcome = adapted[toAdapt.indexOf(plan)]!;
    return 'source' in outcome ? { ...plan, source: outcome.source, data } : { ...plan, errorCode: outcome.errorCode };
  });
  const members = await meterMembers(ctx, principal.accountId, (tenancy) =>
    mapBounded(ready, 4, async (plan): Promise<PlannedMember> => {
      const member = { label: plan.sizeId, name: plan.name, width: plan.width, height: plan.height };
      if ('errorCode' in plan) return { ...member, errorCode: plan.errorCode };
      if (!('source' in plan)) throw new Error('size plan without a source');
      const sized = await dataForSize(ctx.metrics, plan.data, plan.overrides);
      const evaluated = await evaluateMember(ctx, principal.accountId, { source: plan.source, data: sized, field: 'data', brand }, tenancy);
      return { ...member, ...evaluated, options: memberOptions(request.format, plan) };
    }),
  );
  return createRenderGroup(ctx, group, members);
}

const customSize = /^(\d{1,5})x(\d{1,5})$/;

/** Saved size ids of the version come first, then preset slugs, then WIDTHxHEIGHT; anything else is 400 on sizes.N. */
function planSize(resolved: ResolvedTemplateVersion, sizeId: string, index: number, data: Record<string, unknown>): SizePlan {
  if (sizeId === 'original') {
    const canvas = readCanvas(resolved.source);
    if (canvas.kind !== 'canvas') return { sizeId, name: 'Original', width: imageDefaults.width, height: imageDefaults.height, errorCode: 'resize_source_unsupported' };
    return { sizeId, name: 'Original', ...canvas.canvas, source: resolved.source, data };
  }
  const saved = resolved.sizes.find((size) => size.id === sizeId);
  if (saved) {
    return { sizeId, name: saved.name, width: saved.width, height: saved.height, source: saved.source, data, overrides: saved.data_overrides };
  }
  if (Object.hasOwn(imagePackPresets, sizeId)) {
    const preset = imagePackPresets[sizeId as ImagePackPreset];
    return { sizeId, name: preset.name, width: preset.width, height: preset.height, adapt: true };
  }
  const match = customSize.exec(sizeId);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < canvasWidth.min || width > canvasWidth.max || height < canvasHeight.min || height > canvasHeight.max) {
    throw new DomainError('invalid_request', { details: [{ field: `sizes.${index}`, reason: 'invalid value' }] });
  }
  return { sizeId, name: `${width}x${height}`, width, height, adapt: true };
}
