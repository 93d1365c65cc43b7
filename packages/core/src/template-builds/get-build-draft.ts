import type { TemplateBuildDraft } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { findOwnedBuild, type GetTemplateBuildOptions } from './get-template-build.ts';

const noDraft = () => new DomainError('template_draft_not_found');

/** The build's current draft: the last succeeded message's (a failed message keeps the one before). */
export async function getBuildDraft(ctx: ServiceContext, options: GetTemplateBuildOptions): Promise<TemplateBuildDraft> {
  const build = await findOwnedBuild(ctx, options);
  if (build.draft === null) throw noDraft();
  return build.draft as TemplateBuildDraft;
}

export interface GetMessageDraftOptions extends GetTemplateBuildOptions {
  messageId: string;
}

/** The draft of one succeeded message; pending, failed and cancelled messages have none (404 template_draft_not_found). */
export async function getMessageDraft(ctx: ServiceContext, options: GetMessageDraftOptions): Promise<TemplateBuildDraft> {
  const build = await findOwnedBuild(ctx, options);
  const message = await ctx.db.templateMessage.findFirst({ where: { id: options.messageId, buildId: build.id } });
  if (!message) throw new DomainError('template_build_not_found');
  if (message.state !== 'succeeded' || message.draft === null) throw noDraft();
  return message.draft as TemplateBuildDraft;
}
