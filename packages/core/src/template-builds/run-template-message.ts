// The worker side of an AI message (the contract's AI build phases and template message lifecycle): generate, candidate (checks, then a
// preview render), review, final. Every write is fenced on this claim and a pending state,
// so a cancelled message or one taken over by another worker is never finished twice, and
// its credits are settled or released exactly once.
import {
  type ImageProposal,
  isRenderError,
  type LayoutFacts,
  type TemplateBuildDraft,
  type TemplateBuildInput,
  type TemplateOutput,
  type TemplateOutputIntent,
} from '@svc/contracts';
import type { Prisma, TemplateMessage } from '@svc/db';
import { canonicalJson } from '@svc/templating';
import { selectBrandValues, type BrandValues } from '../templates/brand-values.ts';
import { releaseCreditHold, settleCreditHold } from '../credits/reserve-credits.ts';
import { maxRetryWaitMs } from '../ai/openai-compatible-provider.ts';
import { capturedAssetResolver } from '../assets/captured-asset-resolver.ts';
import { type AiChatMessage, AiProviderError } from '../ports/ai-provider.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { type BrandBrief, draftJsonSchema, generationMessages, parseDraftReply, repairMessage, reviewMessages } from './draft-reply.ts';
import { checkDraft, checkSourceImage, maxRepairRounds, resolveOutput } from './message-rules.ts';
import { type CandidateRender, createPreviewJob, runPreviewJob } from '../renders/preview-job.ts';

/** Claims of one message before it fails for good (internal, attempts_exhausted). */
const maxClaims = 3;
const pending = ['running', 'previewing'] as const;

export interface RunTemplateMessageOptions {
  messageId: string;
}

type Failure = { category: 'provider' | 'validation' | 'renderer' | 'unsupported_input' | 'internal'; code: string };

/** Thrown when a fenced write finds the message no longer this claim's (cancelled, or taken over). */
class Superseded extends Error {}

interface Candidate {
  draft: TemplateBuildDraft;
  render: CandidateRender;
  imageProposal: ImageProposal | null;
  /** image outputs: the candidate laid out at its size and measured, for the review */
  layout: LayoutFacts | null;
}

export async function runTemplateMessage(ctx: ServiceContext, { messageId }: RunTemplateMessageOptions): Promise<void> {
  const message = await claim(ctx, messageId);
  if (!message) return;
  const run = new MessageRun(ctx, message);
  try {
    if (message.attempts > maxClaims) return await run.fail({ category: 'internal', code: 'attempts_exhausted' });
    if (!ctx.aiProvider) return await run.fail({ category: 'provider', code: 'provider_unavailable' });
    await run.execute();
  } catch (error) {
    if (error instanceof Superseded) return;
    throw error;
  }
}

async function claim(ctx: ServiceContext, messageId: string): Promise<TemplateMessage | null> {
  const now = ctx.clock();
  const rows = await ctx.db.$queryRaw<{ id: string }[]>`
    UPDATE template_messages SET state = 'running', attempts = attempts + 1, lease_expires_at = ${new Date(now.getTime() + leaseMs(ctx, 'model'))},
           started_at = COALESCE(started_at, ${now}), phase = 'generate', review_count = 0, repair_code = NULL, preview_id = NULL
     WHERE id = ${messageId} AND (state = 'queued' OR (state IN ('running', 'previewing') AND lease_expires_at < ${now}))
    RETURNING id`;
  if (rows.length === 0) return null;
  return ctx.db.templateMessage.findUniqueOrThrow({ where: { id: messageId } });
}

/**
 * How long a claim holds until the next fenced step: a model call with all its tries and the
 * waits between them, or a preview render's own lease. A worker that dies leaves the message
 * to recovery once this has run out.
 */
function leaseMs(ctx: ServiceContext, step: 'model' | 'render'): number {
  if (step === 'render') return ctx.config.renderLeaseMs + 15_000;
  const ai = ctx.config.ai;
  return (ai ? ai.timeoutMs * ai.maxAttempts + maxRetryWaitMs * (ai.maxAttempts - 1) : 0) + 10_000;
}

class MessageRun {
  private readonly ctx: ServiceContext;
  private readonly message: TemplateMessage;
  private readonly input: TemplateBuildInput;
  private readonly intent: TemplateOutputIntent | null;

  constructor(ctx: ServiceContext, message: TemplateMessage) {
    this.ctx = ctx;
    this.message = message;
    this.input = message.input as TemplateBuildInput;
    this.intent = message.outputIntent as TemplateOutputIntent | null;
  }

  async execute(): Promise<void> {
    const { ctx, message } = this;
    const build = await ctx.db.templateBuild.findUniqueOrThrow({ where: { id: message.buildId } });
    let brand: BrandValues | null;
    try {
      brand = await selectBrandValues(ctx.db, { accountId: message.accountId, requested: message.brandKitId, source: undefined, sourceField: 'brand_kit_id' });
    } catch (error) {
      if (error instanceof DomainError) return this.fail({ category: 'validation', code: error.code });
      throw error;
    }
    if (!brand) return this.fail({ category: 'validation', code: 'brand_kit_not_found' });
    const kit = await ctx.db.brandKit.findUniqueOrThrow({ where: { id: brand.id }, select: { toneGuidance: true } });
    const brief: BrandBrief = { id: brand.id, name: brand.name, palette: brand.palette, toneGuidance: kit.toneGuidance, fonts: brand.fonts.map((font) => font.family), logos: brand.logos };
    const image = this.input.type === 'image' ? await checkSourceImage(this.input.base64) : null;
    const imageUrl = image ? `data:${image.mediaType};base64,${this.input.type === 'image' ? this.input.base64 : ''}` : null;
    const previous = build.draft as TemplateBuildDraft | null;
    const fixedOutput = this.intent && this.intent.type !== 'auto' ? resolveOutput(this.intent, null, image) : null;
    const inputMode = build.inputMode ?? 'html';

    try {
      const conversation: AiChatMessage[] = generationMessages({ brand: brief, input: this.input, output: fixedOutput, previous, imageUrl });
      // generate, then candidate; a draft that fails goes into repair rounds with its safe code
      let candidate: Candidate | null = null;
      for (let round = 0; candidate === null; round++) {
        await this.advance({ state: 'running', phase: 'generate' });
        const reply = await this.ask(conversation);
        const attempt = await this.tryCandidate(reply, brand, inputMode, image);
        if ('candidate' in attempt) {
          candidate = attempt.candidate;
          break;
        }
        if ('failure' in attempt) return this.fail(attempt.failure);
        if (round >= maxRepairRounds) return this.fail({ category: 'validation', code: attempt.repairCode });
        await this.advance({ repairCode: attempt.repairCode });
        conversation.push(...repairMessage(reply, attempt.repairCode));
      }

      // review: the model sees its rendered candidate and answers a revised or unchanged draft
      for (let round = 1; round <= message.maxReviews; round++) {
        await this.advance({ state: 'running', phase: 'review', reviewCount: round });
        const renderedImage =
          ctx.aiProvider?.vision && candidate.render.bytes && candidate.render.mediaType?.startsWith('image/')
            ? `data:${candidate.render.mediaType};base64,${candidate.render.bytes.toString('base64')}`
            : null;
        const facts = { output: candidate.draft.output, pageCount: candidate.render.pageCount, byteSize: candidate.render.bytes?.byteLength ?? 0, layout: candidate.layout };
        let reply: string;
        try {
          reply = await this.ask([...conversation, ...reviewMessages(candidate.draft, facts, renderedImage)]);
        } catch (error) {
          // the candidate already passed: a provider failing the review does not undo it
          if (error instanceof AiProviderError) break;
          throw error;
        }
        const parsed = parseDraftReply(reply);
        if (!parsed.ok || sameDraft(parsed.draft, candidate.draft)) break;
        const revised = await this.tryCandidate(reply, brand, inputMode, image);
        // a revision that does not pass keeps the candidate that did
        if (!('candidate' in revised)) break;
        candidate = revised.candidate;
      }
      await this.succeed(candidate);
    } catch (error) {
      if (error instanceof AiProviderError) return this.fail({ category: 'provider', code: error.code });
      throw error;
    }
  }

  private ask(messages: AiChatMessage[]): Promise<string> {
    const provider = this.ctx.aiProvider;
    if (!provider) throw new AiProviderError('provider_unreachable');
    return provider.complete({ messages, jsonSchema: draftJsonSchema });
  }

  /** A reply through the checks and the preview render: a candidate, a repair code, or a failure that ends the message. */
  private async tryCandidate(
    reply: string,
    brand: BrandValues,
    inputMode: 'html' | 'blank',
    image: { width: number; height: number } | null,
  ): Promise<{ candidate: Candidate } | { repairCode: string } | { failure: Failure }> {
    const parsed = parseDraftReply(reply);
    if (!parsed.ok) return { repairCode: parsed.code };
    await this.advance({ phase: 'candidate' });
    const output: TemplateOutput = resolveOutput(this.intent, parsed.output, image);
    const draft: TemplateBuildDraft = { ...parsed.draft, output };
    let html: string;
    try {
      html = await checkDraft({ db: this.ctx.db, accountId: this.message.accountId, draft, brand, inputMode, field: 'draft', metrics: this.ctx.metrics });
    } catch (error) {
      if (error instanceof DomainError) return { repairCode: error.code };
      throw error;
    }
    const jobId = await createPreviewJob(this.ctx, { accountId: this.message.accountId, keyId: this.message.keyId, html, output });
    await this.advance({ state: 'previewing', previewId: jobId, output });
    const render = await runPreviewJob(this.ctx, jobId);
    await this.advance({ state: 'running' });
    if (render.status === 'succeeded') return { candidate: { draft, render, imageProposal: parsed.imageProposal, layout: await this.measure(html, output, jobId) } };
    // what the page asked for (the network, a missing asset) is the draft's to fix; a renderer fault is not
    if (render.errorCategory === 'unsafe_asset' || render.errorCategory === 'invalid_input' || render.errorCategory === 'resource_limit') {
      return { repairCode: render.errorCode ?? 'render_refused' };
    }
    return { failure: { category: 'renderer', code: render.errorCode ?? 'render_failed' } };
  }

  /**
   * An image candidate laid out at its size in a sandbox of the account, with the preview job's
   * captured assets, and measured (the AI build's review phase: layout facts such as overflow). Advisory: a
   * measurement that fails leaves the review without it.
   */
  private async measure(html: string, output: TemplateOutput, jobId: string): Promise<LayoutFacts | null> {
    const engine = this.ctx.renderEngine;
    if (output.type !== 'image' || !engine.measureLayout) return null;
    const viewport = { width: output.width, height: output.height };
    return engine
      .measureLayout({ account: this.message.accountId, html, viewport, assets: capturedAssetResolver(this.ctx, jobId), timeoutMs: this.ctx.config.renderTimeoutMs })
      .catch((error: unknown) => {
        if (isRenderError(error)) return null;
        throw error;
      });
  }

  /** A fenced step: the message must still be this claim's and pending; the lease is renewed. */
  private async advance(fields: { state?: 'running' | 'previewing'; phase?: TemplateMessage['phase']; repairCode?: string; previewId?: string; reviewCount?: number; output?: TemplateOutput }) {
    const now = this.ctx.clock();
    const updated = await this.ctx.db.templateMessage.updateMany({
      where: { id: this.message.id, attempts: this.message.attempts, state: { in: [...pending] } },
      data: {
        ...(fields.state ? { state: fields.state } : {}),
        ...(fields.phase ? { phase: fields.phase } : {}),
        ...(fields.repairCode ? { repairCode: fields.repairCode } : {}),
        ...(fields.previewId ? { previewId: fields.previewId } : {}),
        ...(fields.reviewCount !== undefined ? { reviewCount: fields.reviewCount } : {}),
        ...(fields.output ? { output: fields.output as Prisma.InputJsonValue } : {}),
        leaseExpiresAt: new Date(now.getTime() + leaseMs(this.ctx, fields.state === 'previewing' ? 'render' : 'model')),
      },
    });
    if (updated.count === 0) throw new Superseded();
  }

  private async succeed(candidate: Candidate): Promise<void> {
    const now = this.ctx.clock();
    const { message } = this;
    await this.ctx.db.$transaction(async (tx) => {
      const updated = await tx.templateMessage.updateMany({
        where: { id: message.id, attempts: message.attempts, state: { in: [...pending] } },
        data: {
          state: 'succeeded',
          phase: 'final',
          draft: candidate.draft as Prisma.InputJsonValue,
          output: candidate.draft.output as Prisma.InputJsonValue,
          previewId: candidate.render.jobId,
          repairCode: null,
          ...(candidate.imageProposal ? { imageProposal: candidate.imageProposal as Prisma.InputJsonValue, imageProposalState: 'pending' } : {}),
          finishedAt: now,
          leaseExpiresAt: null,
        },
      });
      if (updated.count === 0) throw new Superseded();
      await settleCreditHold(tx, { holdId: message.id, now, metrics: this.ctx.metrics });
      await tx.templateBuild.update({ where: { id: message.buildId }, data: { draft: candidate.draft as Prisma.InputJsonValue, draftMessageId: message.id, reviewed: false, updatedAt: now } });
    });
  }

  /** Ends the message failed: the previous draft stays, the reservation is released. */
  async fail(failure: Failure): Promise<void> {
    const now = this.ctx.clock();
    const { message } = this;
    // codes are the service's own words, so they may be logged; the conversation never is
    this.ctx.logger.warn('AI message failed', { messageId: message.id, category: failure.category, code: failure.code });
    await this.ctx.db.$transaction(async (tx) => {
      const updated = await tx.templateMessage.updateMany({
        where: { id: message.id, attempts: message.attempts, state: { in: [...pending] } },
        data: {
          state: 'failed',
          failureCategory: failure.category,
          failureCode: failure.code,
          // the code that blocked the last repair stays readable after the failure
          ...(failure.category === 'validation' ? { repairCode: failure.code } : {}),
          finishedAt: now,
          leaseExpiresAt: null,
        },
      });
      if (updated.count === 0) throw new Superseded();
      await releaseCreditHold(tx, { holdId: message.id, now, metrics: this.ctx.metrics });
    });
  }
}

function sameDraft(next: Omit<TemplateBuildDraft, 'output'>, current: TemplateBuildDraft): boolean {
  return canonicalJson({ source: next.source, sample_data: next.sample_data, schema: next.schema }) ===
    canonicalJson({ source: current.source, sample_data: current.sample_data, schema: current.schema });
}
