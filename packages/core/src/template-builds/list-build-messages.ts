import type { TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { findOwnedBuild, type GetTemplateBuildOptions } from './get-template-build.ts';

/** Messages a listing shows (the contract's AI build routes): the newest 100. */
export const maxListedMessages = 100;

/** The build's newest 100 messages in chat order, oldest first. */
export async function listBuildMessages(ctx: ServiceContext, options: GetTemplateBuildOptions): Promise<TemplateMessage[]> {
  const build = await findOwnedBuild(ctx, options);
  const newest = await ctx.db.templateMessage.findMany({
    where: { buildId: build.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: maxListedMessages,
  });
  return newest.reverse();
}
