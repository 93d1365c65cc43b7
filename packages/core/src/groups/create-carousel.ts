import type { CarouselCreate, FieldDetail } from '@svc/contracts';
import { imageDefaults } from '@svc/rules';
import { findCanvasPages } from '@svc/templating';
import type { Principal } from '../auth/principal.ts';
import { refuseUnlessCreditsCover } from '../renders/refuse-uncovered-work.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { readCanvas } from '../templates/canvas.ts';
import { type CreateGroupResult, createRenderGroup, openGroupRequest, takeGroupCreationToken } from './create-render-group.ts';
import { evaluateMember, memberOptions, meterMembers, validateMemberData } from './member-input.ts';

export interface CreateCarouselOptions {
  principal: Principal;
  request: CarouselCreate;
  idempotencyKey: string | null;
}

/**
 * A carousel (the contract's groups and their routes): the version is evaluated once with data, then each selected
 * canvas page (data-svc-page) becomes one image job, in requested order, named by its
 * data-svc-page-name (else its id), at the canvas size the version declares (else 1280x720).
 * Unknown page ids answer 400 on pages.N. The render creation token (429) and a credit (402)
 * come before the data is looked at; validation and evaluation are within the account's
 * evaluation budget.
 */
export async function createCarousel(ctx: ServiceContext, { principal, request, idempotencyKey }: CreateCarouselOptions): Promise<CreateGroupResult> {
  const { group, replay } = await openGroupRequest(ctx, { principal, kind: 'carousel', request, idempotencyKey });
  if (replay) return replay;
  const { resolved } = group;

  const data = request.data ?? {};
  await takeGroupCreationToken(ctx, group);
  await refuseUnlessCreditsCover(ctx.db, { principal, credits: 1, now: ctx.clock() });
  const brand = await selectBrandValues(ctx.db, { accountId: principal.accountId, requested: undefined, source: resolved.source, sourceField: 'template_id' });
  const { html, assetIds, dataSha256 } = await meterMembers(ctx, principal.accountId, async (tenancy) => {
    await validateMemberData(ctx.metrics, resolved.schema, [{ data, field: 'data' }], brand, tenancy);
    return evaluateMember(ctx, principal.accountId, { source: resolved.source, data, field: 'data', brand }, tenancy);
  });

  const pages = new Map<string, string | null>();
  for (const page of findCanvasPages(html)) if (!pages.has(page.id)) pages.set(page.id, page.name);
  const unknown: FieldDetail[] = request.pages.flatMap((id, index) => (pages.has(id) ? [] : [{ field: `pages.${index}`, reason: 'invalid value' as const }]));
  if (unknown.length > 0) throw new DomainError('invalid_request', { details: unknown.slice(0, 16) });

  const canvas = readCanvas(resolved.source);
  const size = canvas.kind === 'canvas' ? canvas.canvas : { width: imageDefaults.width, height: imageDefaults.height };
  const members = request.pages.map((id) => ({
    label: id,
    name: pages.get(id) || id,
    width: size.width,
    height: size.height,
    html,
    assetIds,
    dataSha256,
    options: memberOptions(request.format, size, id),
  }));
  return createRenderGroup(ctx, group, members);
}
