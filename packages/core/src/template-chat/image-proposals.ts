// The model's image suggestion on a chat message (the contract's image proposals and their lifecycle). These routes never call an
// image model and spend nothing: reject marks a pending suggestion rejected, apply keeps it
// with its layout applied (restoring a rejected one).
import type { ImageProposal } from '@svc/contracts';
import type { TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { findAnyChatMessage } from './chat-records.ts';

export interface ImageProposalRecord {
  proposal: ImageProposal | null;
  state: 'pending' | 'rejected' | 'approved';
  generationId: string | null;
  applied: boolean;
}

export interface ImageProposalOptions {
  accountId: string;
  messageId: string;
  /** The template the route names (chat routes); the /v1/ai-image-proposals routes name none. */
  templateId?: string;
}

async function proposalMessage(ctx: ServiceContext, options: ImageProposalOptions): Promise<TemplateMessage> {
  const message = await findAnyChatMessage(ctx, options.accountId, options.messageId);
  if (options.templateId !== undefined) {
    const chat = await ctx.db.templateBuild.findUnique({ where: { id: message.buildId }, select: { templateId: true } });
    if (chat?.templateId !== options.templateId) throw notFound();
  }
  // a message that has not succeeded has no suggestion yet; one that succeeded without any has none
  if (message.state !== 'succeeded') throw new DomainError('operation_conflict');
  if (message.imageProposal === null) throw notFound();
  return message;
}

function recordOf(message: TemplateMessage): ImageProposalRecord {
  return {
    proposal: message.imageProposal as ImageProposal | null,
    state: (message.imageProposalState ?? 'pending') as ImageProposalRecord['state'],
    generationId: null,
    applied: message.imageProposalApplied,
  };
}

export async function getImageProposal(ctx: ServiceContext, options: ImageProposalOptions): Promise<ImageProposalRecord> {
  return recordOf(await proposalMessage(ctx, options));
}

/** Rejects a pending suggestion; an approved or rejected one keeps its state. */
export async function rejectImageProposal(ctx: ServiceContext, options: ImageProposalOptions): Promise<ImageProposalRecord> {
  const message = await proposalMessage(ctx, options);
  await ctx.db.templateMessage.updateMany({ where: { id: message.id, imageProposalState: 'pending' }, data: { imageProposalState: 'rejected' } });
  return recordOf(await ctx.db.templateMessage.findUniqueOrThrow({ where: { id: message.id } }));
}

/** Keeps the suggestion with its layout applied: approved, applied true; a rejected one is restored. */
export async function applyImageProposal(ctx: ServiceContext, options: ImageProposalOptions): Promise<ImageProposalRecord> {
  const message = await proposalMessage(ctx, options);
  const updated = await ctx.db.templateMessage.update({ where: { id: message.id }, data: { imageProposalState: 'approved', imageProposalApplied: true } });
  return recordOf(updated);
}
