import { templateBuildIdPrefix, type TemplateBuildCreate } from '@svc/contracts';
import type { Principal } from '../auth/principal.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { checkIncomingMessage, requireIdempotencyKey, findMessageReplay, type IncomingMessage, messageFingerprint, recordMessage } from './accept-message.ts';
import { type BuildWithMessage, getTemplateBuild } from './get-template-build.ts';
import { priceOf } from './message-rules.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';

export interface CreateTemplateBuildOptions {
  principal: Principal;
  request: TemplateBuildCreate;
  idempotencyKey: string | null;
}

export interface CreateTemplateBuildResult {
  build: BuildWithMessage;
  /** An earlier request with the same Idempotency-Key and body (200), not a new build (202). */
  replayed: boolean;
}

/** Idempotency-Key scope of build creation; edits use the build's id. */
const createScope = 'builds';

/**
 * Starts a build (the contract's AI build routes): the kit is required and must be active; the first message is
 * accepted with the build's price (50, or 0 for a source) paid by anything but free monthly
 * credits (402 ai_needs_paid_credits, nothing held).
 */
export async function createTemplateBuild(ctx: ServiceContext, options: CreateTemplateBuildOptions): Promise<CreateTemplateBuildResult> {
  const { principal, request, idempotencyKey } = options;
  const accountId = principal.accountId;
  const fingerprint = messageFingerprint({ brand_kit_id: request.brand_kit_id, input: request.input, input_mode: request.input_mode ?? null, output: request.output ?? null });
  const replay = async (messageId: string) => {
    const message = await ctx.db.templateMessage.findUniqueOrThrow({ where: { id: messageId }, select: { buildId: true } });
    return { build: await getTemplateBuild(ctx, { accountId, buildId: message.buildId }), replayed: true };
  };
  const key = requireIdempotencyKey(idempotencyKey);
  const earlier = await findMessageReplay(ctx.db, accountId, createScope, key, fingerprint);
  if (earlier) return replay(earlier);
  if (request.input_mode !== undefined && request.input.type !== 'source') {
    throw new DomainError('invalid_request', { details: [{ field: 'input_mode', reason: 'invalid value' }] });
  }
  const brand = await selectBrandValues(ctx.db, { accountId, requested: request.brand_kit_id, source: undefined, sourceField: 'brand_kit_id' });
  if (!brand) throw new DomainError('brand_kit_not_found', { details: [{ field: 'brand_kit_id', reason: 'invalid value' }] });
  const inputMode = request.input_mode ?? 'html';
  const message: IncomingMessage = { input: request.input, output: request.output ?? null, price: priceOf(request.input, false), brand, inputMode };
  const sourceDraft = await checkIncomingMessage(ctx, principal, message);
  const now = ctx.clock();

  const outcome = await ctx.db.$transaction(async (tx) => {
    // serialises the account's acceptances: a key is recorded once, credits are held once
    await lockAccountAdmissions(tx, accountId);
    const earlier = await findMessageReplay(tx, accountId, createScope, key, fingerprint);
    if (earlier) return { earlier };
    const buildId = newId(templateBuildIdPrefix);
    await tx.templateBuild.create({ data: { id: buildId, accountId, brandKitId: brand.id, inputMode: request.input_mode ?? null, createdAt: now, updatedAt: now } });
    await recordMessage(tx, {
      principal,
      buildId,
      message,
      sourceDraft,
      maxReviews: ctx.config.ai?.maxReviews ?? 0,
      scope: createScope,
      idempotencyKey: key,
      fingerprint,
      refusal: 'ai_needs_paid_credits',
      now,
      metrics: ctx.metrics,
    });
    return { buildId };
  });
  if ('earlier' in outcome && outcome.earlier) return replay(outcome.earlier);
  return { build: await getTemplateBuild(ctx, { accountId, buildId: outcome.buildId as string }), replayed: false };
}
