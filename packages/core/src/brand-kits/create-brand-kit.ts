import { brandKitIdPrefix, type BrandKitWrite } from '@svc/contracts';
import type { Plan } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { brandKitLimits, checkToneGuidance, normaliseColours, normaliseKitName } from './brand-kit-fields.ts';
import type { BrandKitWithHistory } from './get-brand-kit.ts';

export interface CreateBrandKitOptions {
  accountId: string;
  request: BrandKitWrite;
}

/**
 * Creates a brand kit (the contract's brand kit routes) within the plan's count of kits, archived ones included. The
 * account row is locked while counting, so concurrent creates cannot pass the limit together;
 * the plan is read from that locked row, so a plan change is seen at once.
 */
export async function createBrandKit(ctx: ServiceContext, { accountId, request }: CreateBrandKitOptions): Promise<BrandKitWithHistory> {
  const name = normaliseKitName(request.name);
  const colours = normaliseColours(request.colours ?? []);
  const toneGuidance = checkToneGuidance(request.tone_guidance ?? null);
  const now = ctx.clock();
  const kit = await ctx.db.$transaction(async (tx) => {
    const [account] = await tx.$queryRaw<{ plan: Plan }[]>`SELECT plan FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    if (!account) throw new Error(`account ${accountId} vanished`);
    const limit = brandKitLimits[account.plan];
    const held = await tx.brandKit.count({ where: { accountId } });
    if (held >= limit) throw new DomainError('brand_kit_limit', { planLimit: { plan: account.plan, limit } });
    return tx.brandKit.create({
      data: { id: newId(brandKitIdPrefix), accountId, name, colours, toneGuidance, createdAt: now, updatedAt: now },
    });
  });
  return { kit, archives: [], assets: [] };
}
