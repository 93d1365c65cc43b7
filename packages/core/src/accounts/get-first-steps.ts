import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';

export interface GetFirstStepsOptions {
  accountId: string;
}

/** Whether the account has done each of the first things a new account is shown to do. */
export interface FirstSteps {
  /** Holds a saved template (from the starter gallery or its own, archived ones too). */
  template: boolean;
  /** Has rendered a saved template, by the API or the dashboard. */
  templateRender: boolean;
  /** Created an API key of its own: the key an account is opened with does not count. */
  key: boolean;
  /** Holds a webhook destination. */
  webhook: boolean;
}

export async function getFirstSteps(ctx: ServiceContext, { accountId }: GetFirstStepsOptions): Promise<FirstSteps> {
  const account = await ctx.db.account.findUnique({ where: { id: accountId }, select: { createdAt: true } });
  if (!account) throw notFound();
  const [template, key, webhook] = await Promise.all([
    ctx.db.template.findFirst({ where: { accountId }, select: { id: true } }),
    // the opening key is written in the account's own transaction, with the account's moment
    ctx.db.apiKey.findFirst({ where: { accountId, createdAt: { gt: account.createdAt } }, select: { id: true } }),
    ctx.db.webhook.findFirst({ where: { accountId }, select: { id: true } }),
  ]);
  // templates are never deleted (only archived): without one there is no template render to look for
  const templateRender = template && (await ctx.db.renderJob.findFirst({ where: { accountId, templateId: { not: null } }, select: { id: true } }));
  return { template: template !== null, templateRender: !!templateRender, key: key !== null, webhook: webhook !== null };
}
