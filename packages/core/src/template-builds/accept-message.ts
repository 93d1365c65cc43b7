// Accepting one AI message (build creation or edit, the contract's template message lifecycle): the checks that need no model,
// then one transaction that replays or refuses an Idempotency-Key, holds the credits, records
// the message and queues the pipeline. A source message needs no model: it succeeds here.
import { createHash } from 'node:crypto';
import { templateMessageIdPrefix, type TemplateBuildDraft, type TemplateBuildInput, type TemplateOutputIntent } from '@svc/contracts';
import type { Prisma, Tx } from '@svc/db';
import { canonicalJson } from '@svc/templating';
import { keyIdOf, overageCapOf, type Principal } from '../auth/principal.ts';
import type { BrandValues } from '../templates/brand-values.ts';
import { reserveCredits } from '../credits/reserve-credits.ts';
import { templateMessageTaskKey } from '../tasks/catalog.ts';
import { enqueue } from '../tasks/enqueue.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { checkDraft, checkOutputIntent, checkSourceImage, sourceOutput } from './message-rules.ts';

export interface IncomingMessage {
  input: TemplateBuildInput;
  output: TemplateOutputIntent | null;
  price: 0 | 25 | 50;
  brand: BrandValues;
  inputMode: 'html' | 'blank';
}

/** The header Idempotency-Key is required on create and edit: 1 to 255 printable ASCII characters. */
export function requireIdempotencyKey(key: string | null): string {
  if (key === null || !/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new DomainError('invalid_request', { details: [{ field: 'Idempotency-Key', reason: key === null ? 'missing field' : 'invalid value' }] });
  }
  return key;
}

/** The checks of a message before anything is held: output intent, the provider, a source or image input. */
export async function checkIncomingMessage(ctx: ServiceContext, principal: Principal, message: IncomingMessage): Promise<TemplateBuildDraft | null> {
  checkOutputIntent(message.output ?? undefined);
  const { input } = message;
  if (input.type === 'source') {
    const draft: TemplateBuildDraft = {
      source: input.source,
      sample_data: input.sample_data ?? {},
      schema: input.schema ?? null,
      output: sourceOutput(message.output, input.source),
    };
    await checkDraft({ db: ctx.db, accountId: principal.accountId, draft, brand: message.brand, inputMode: message.inputMode, field: 'input', metrics: ctx.metrics });
    return draft;
  }
  // no model, no message: answered before anything is reserved
  if (!ctx.aiProvider) throw new DomainError('provider_unavailable');
  if (input.type === 'image') await checkSourceImage(input.base64);
  return null;
}

/** The logical request an Idempotency-Key stands for. */
export function messageFingerprint(parts: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

/** The message an Idempotency-Key already names in this scope; another request under it is a conflict. */
export async function findMessageReplay(db: Tx | ServiceContext['db'], accountId: string, scope: string, key: string, fingerprint: string): Promise<string | null> {
  const record = await db.templateMessageIdempotency.findUnique({ where: { accountId_scope_key: { accountId, scope, key } } });
  if (!record) return null;
  if (record.fingerprint !== fingerprint) throw new DomainError('idempotency_conflict');
  return record.messageId;
}

export interface RecordMessageOptions {
  principal: Principal;
  buildId: string;
  message: IncomingMessage;
  /** The checked draft of a source message, which succeeds at once. */
  sourceDraft: TemplateBuildDraft | null;
  maxReviews: number;
  scope: string;
  idempotencyKey: string;
  fingerprint: string;
  /** On build routes free monthly credits cannot pay (402 ai_needs_paid_credits). */
  refusal: 'insufficient_credits' | 'ai_needs_paid_credits';
  now: Date;
  /** Where the reservation is counted (the service context's). */
  metrics: ServiceMetrics;
}

/** Inside the caller's transaction (the account row locked): holds the credits, records the message and queues its work. */
export async function recordMessage(tx: Tx, options: RecordMessageOptions): Promise<string> {
  const { principal, message, sourceDraft, now } = options;
  const id = newId(templateMessageIdPrefix);
  const keyId = keyIdOf(principal);
  if (message.price > 0) {
    await reserveCredits(tx, {
      accountId: principal.accountId,
      plan: principal.plan,
      holder: { holdId: id, amount: message.price },
      keyId,
      overageCap: overageCapOf(principal),
      excluded: options.refusal === 'ai_needs_paid_credits' ? ['free_monthly'] : [],
      refusal: options.refusal,
      now,
      metrics: options.metrics,
    });
  }
  const done = sourceDraft !== null;
  await tx.templateMessage.create({
    data: {
      id,
      accountId: principal.accountId,
      buildId: options.buildId,
      keyId,
      brandKitId: message.brand.id,
      state: done ? 'succeeded' : 'queued',
      phase: done ? 'final' : 'generate',
      inputType: message.input.type,
      input: message.input as Prisma.InputJsonValue,
      outputIntent: (message.output ?? undefined) as Prisma.InputJsonValue | undefined,
      output: (sourceDraft?.output ?? undefined) as Prisma.InputJsonValue | undefined,
      credits: message.price,
      maxReviews: done ? 0 : options.maxReviews,
      draft: (sourceDraft ?? undefined) as Prisma.InputJsonValue | undefined,
      createdAt: now,
      startedAt: done ? now : null,
      finishedAt: done ? now : null,
    },
  });
  if (sourceDraft) {
    await tx.templateBuild.update({
      where: { id: options.buildId },
      data: { draft: sourceDraft as Prisma.InputJsonValue, draftMessageId: id, reviewed: false, updatedAt: now },
    });
  } else {
    await enqueue(tx, 'template_message', { message_id: id }, { jobKey: templateMessageTaskKey(id) });
  }
  await tx.templateMessageIdempotency.create({
    data: { accountId: principal.accountId, scope: options.scope, key: options.idempotencyKey, fingerprint: options.fingerprint, messageId: id, createdAt: now },
  });
  return id;
}
