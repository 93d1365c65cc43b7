import type { TemplateBuild, TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';

export interface ListTemplateBuildsOptions {
  accountId: string;
  limit: number;
}

export interface BuildSummary {
  build: TemplateBuild;
  /** The build's first message (what it was started from) and its newest one. */
  first: TemplateMessage;
  newest: TemplateMessage;
}

/**
 * The account's AI builds, newest change first (the dashboard's list; the API has no listing).
 * Template chats are builds too, tied to a template: they are left out.
 */
export async function listTemplateBuilds(ctx: ServiceContext, { accountId, limit }: ListTemplateBuildsOptions): Promise<BuildSummary[]> {
  const builds = await ctx.db.templateBuild.findMany({
    where: { accountId, templateId: null },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: limit,
    include: {
      messages: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 1 },
    },
  });
  const newest = await Promise.all(
    builds.map((build) => ctx.db.templateMessage.findFirstOrThrow({ where: { buildId: build.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })),
  );
  return builds.map(({ messages, ...build }, index) => ({ build, first: messages[0] ?? newest[index]!, newest: newest[index]! }));
}
