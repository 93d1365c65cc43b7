import type { ServiceContext } from '../shared/context.ts';

export type OwnedResource = 'render_job' | 'template' | 'brand_kit' | 'webhook' | 'api_key';

/**
 * The account that owns a resource, or null when there is none. Operators name objects by id
 * alone; the owner found here is then handed to the same use-case a customer's request runs,
 * so an operator reads and changes exactly what REST shows the customer.
 */
export async function ownerOf(ctx: ServiceContext, resource: OwnedResource, id: string): Promise<string | null> {
  const where = { where: { id }, select: { accountId: true } } as const;
  const row =
    resource === 'render_job'
      ? await ctx.db.renderJob.findUnique(where)
      : resource === 'template'
        ? await ctx.db.template.findUnique(where)
        : resource === 'brand_kit'
          ? await ctx.db.brandKit.findUnique(where)
          : resource === 'webhook'
            ? await ctx.db.webhook.findUnique(where)
            : await ctx.db.apiKey.findUnique(where);
  return row?.accountId ?? null;
}
