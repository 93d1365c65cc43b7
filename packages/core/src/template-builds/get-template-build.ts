import { idPattern, templateBuildIdPrefix } from '@svc/contracts';
import type { TemplateBuild, TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';

export interface BuildWithMessage {
  build: TemplateBuild;
  /** The newest message (every build has at least one). */
  message: TemplateMessage;
}

export interface GetTemplateBuildOptions {
  accountId: string;
  buildId: string;
}

export const buildNotFound = () => new DomainError('template_build_not_found');

/** A build of the account; foreign, missing and malformed ids answer the same 404 template_build_not_found. */
export async function findOwnedBuild(ctx: ServiceContext, { accountId, buildId }: GetTemplateBuildOptions): Promise<TemplateBuild> {
  if (!idPattern(templateBuildIdPrefix).test(buildId)) throw buildNotFound();
  const build = await ctx.db.templateBuild.findFirst({ where: { id: buildId, accountId, templateId: null } });
  if (!build) throw buildNotFound();
  return build;
}

/**
 * The build with its newest message (the contract's AI build GET route), read from one snapshot: a message that
 * just succeeded and the build's draft it set are committed together, so they are seen together.
 */
export async function getTemplateBuild(ctx: ServiceContext, options: GetTemplateBuildOptions): Promise<BuildWithMessage> {
  const { id } = await findOwnedBuild(ctx, options);
  const [build, message] = await ctx.db.$transaction(
    [
      ctx.db.templateBuild.findUniqueOrThrow({ where: { id } }),
      ctx.db.templateMessage.findFirstOrThrow({ where: { buildId: id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { build, message };
}
