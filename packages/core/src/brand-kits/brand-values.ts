// What templates read as brand.* when a kit is selected (the contract's brand values), and how a kit is selected.
import type { DbOrTx } from '@svc/db';
import { defaultBrandKitId } from '../templates/canvas.ts';
import { DomainError } from '../shared/errors.ts';
import type { AssetRecord, BrandKitRecord } from '../shared/records.ts';
import { currentBrandAssets } from './get-brand-kit.ts';

/** An uploaded font as templates see it: its family name and its asset:// reference. */
export interface BrandFont {
  family: string;
  src: string;
}

export interface BrandValues {
  id: string;
  name: string;
  /** The kit's colours, lowercase #rrggbb, in the order the customer gave them. */
  palette: string[];
  /** Roles by palette position: first primary, second secondary, third accent; absent roles are omitted. */
  colours: { primary?: string; secondary?: string; accent?: string };
  /** The first current logo in kit order (absent while the kit has none), and all current logos, as asset:// references. */
  logo?: string;
  logos: string[];
  fonts: BrandFont[];
}

const roles = ['primary', 'secondary', 'accent'] as const;

/** `assets` are the kit's current assets in kit order (a replacement keeps the place of what it replaced). */
export function brandValuesOf(kit: BrandKitRecord, assets: AssetRecord[]): BrandValues {
  const colours: BrandValues['colours'] = {};
  roles.forEach((role, index) => {
    const colour = kit.colours[index];
    if (colour !== undefined) colours[role] = colour;
  });
  const reference = (asset: AssetRecord) => `asset://${asset.id}`;
  const logos = assets.filter((asset) => asset.kind === 'logo').map(reference);
  const fonts = assets.filter((asset) => asset.kind === 'font').map((asset) => ({ family: asset.fontFamily ?? asset.id, src: reference(asset) }));
  const values: BrandValues = { id: kit.id, name: kit.name, palette: [...kit.colours], colours, logos, fonts };
  if (logos[0] !== undefined) values.logo = logos[0];
  return values;
}

/** The object a template reads as `brand` (the kit id is not part of it). */
export function templateBrand({ id: _id, ...brand }: BrandValues): Record<string, unknown> {
  return brand;
}

export interface SelectBrandKitOptions {
  accountId: string;
  /** The request's brand_kit_id: an id, null for no kit, or undefined to use the source's default. */
  requested: string | null | undefined;
  /** The template source whose <meta name="svc-brand-kit"> names a default; undefined when html is not a template. */
  source: string | undefined;
  /** Where a problem with the source's default points (html, template_id or source). */
  sourceField: string;
}

/**
 * The brand values of the selected kit, read now so the render captures them: the request's
 * brand_kit_id wins over the source default. A kit that is foreign or missing answers 404
 * brand_kit_not_found, an archived one 409 brand_kit_unavailable.
 */
export async function selectBrandValues(db: DbOrTx, options: SelectBrandKitOptions): Promise<BrandValues | null> {
  const { accountId, requested, source, sourceField } = options;
  const kitId = requested !== undefined ? requested : source !== undefined ? defaultBrandKitId(source) : null;
  if (kitId === null) return null;
  const field = requested !== undefined ? 'brand_kit_id' : sourceField;
  const details = [{ field, reason: 'invalid value' as const }];
  const found = await db.brandKit.findFirst({ where: { id: kitId, accountId }, include: { assets: currentBrandAssets } });
  if (!found) throw new DomainError('brand_kit_not_found', { details });
  const { assets, ...kit } = found;
  if (kit.archivedAt !== null) throw new DomainError('brand_kit_unavailable', { details });
  return brandValuesOf(kit, assets);
}

/** data.brand is reserved while a kit is selected (400 brand_data_conflict). */
export function checkBrandData(data: Record<string, unknown>, brand: BrandValues | null): void {
  if (brand && Object.hasOwn(data, 'brand')) {
    throw new DomainError('brand_data_conflict', { details: [{ field: 'data/brand', reason: 'invalid value' }] });
  }
}
