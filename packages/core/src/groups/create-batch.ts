import { type BatchCreate, batchRowAllowance } from '@svc/contracts';
import type { Principal } from '../auth/principal.ts';
import { refuseUnlessCreditsCover } from '../renders/refuse-uncovered-work.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { readCanvas } from '../templates/canvas.ts';
import { type CreateGroupResult, createRenderGroup, openGroupRequest, takeGroupCreationToken } from './create-render-group.ts';
import { evaluateMember, mapBounded, memberOptions, meterMembers, validateMemberData } from './member-input.ts';

export interface CreateBatchOptions {
  principal: Principal;
  request: BatchCreate;
  idempotencyKey: string | null;
}

/**
 * A batch (the contract's groups and their routes): one render of the pinned version per data row. The row count is
 * held to the plan's allowance (400 batch_row_limit with plan_limit); before any row is
 * looked at, the render creation token is taken (429) and the account must hold a credit (402);
 * then, within the account's evaluation budget, every row is validated against the version's
 * schema, then evaluated, before any job exists; a bad row answers 400 naming rows.N and
 * nothing is created or charged.
 */
export async function createBatch(ctx: ServiceContext, { principal, request, idempotencyKey }: CreateBatchOptions): Promise<CreateGroupResult> {
  const { group, replay } = await openGroupRequest(ctx, { principal, kind: 'batch', request, idempotencyKey });
  if (replay) return replay;
  const { resolved } = group;

  const limit = batchRowAllowance[principal.plan];
  if (request.rows.length > limit) throw new DomainError('batch_row_limit', { planLimit: { plan: principal.plan, limit } });
  await takeGroupCreationToken(ctx, group);
  await refuseUnlessCreditsCover(ctx.db, { principal, credits: 1, now: ctx.clock() });
  const brand = await selectBrandValues(ctx.db, { accountId: principal.accountId, requested: undefined, source: resolved.source, sourceField: 'template_id' });
  const canvas = readCanvas(resolved.source);
  const options = memberOptions(request.format, canvas.kind === 'canvas' ? canvas.canvas : null);
  const members = await meterMembers(ctx, principal.accountId, async (tenancy) => {
    await validateMemberData(
      ctx.metrics,
      resolved.schema,
      request.rows.map((data, index) => ({ data, field: `rows.${index}` })),
      brand,
      tenancy,
    );
    return mapBounded(request.rows, 8, async (data, index) => ({
      label: null,
      name: null,
      width: null,
      height: null,
      options,
      ...(await evaluateMember(ctx, principal.accountId, { source: resolved.source, data, field: `rows.${index}`, brand }, tenancy)),
    }));
  });
  return createRenderGroup(ctx, group, members);
}
