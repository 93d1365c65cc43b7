// What templates read as brand.* when a kit is selected (spec 2.8), and how a kit is selected.
import type { DbOrTx } from '@svc/db';
import { defaultBrandKitId } from '../templates/canvas.ts';
import { DomainError } from '../shared/errors.ts';
import { type BrandKitRecord } from '../shared/records.ts';

/** An uploaded logo or font as templates see it; none exist until brand assets do. */
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
  /** The current logo (absent while the kit has none), and all current logos. */
  logo?: string;
  logos: string[];
  fonts: BrandFont[];
}

const roles = ['primary', 'secondary', 'accent'] as const;

export function brandValuesOf(kit: BrandKitRecord): BrandValues {
  const colours: BrandValues['colours'] = {};
  roles.forEach((role, index) => {
    const colour = kit.colours[index];
    if (colour !== undefined) colours[role] = colour;
  });
  return { id: kit.id, name: kit.name, palette: [...kit.colours], colours, logos: [], fonts: [] };
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
  const kit = await db.brandKit.findFirst({ where: { id: kitId, accountId } });
  if (!kit) throw new DomainError('brand_kit_not_found', { details });
  if (kit.archivedAt !== null) throw new DomainError('brand_kit_unavailable', { details });
  return brandValuesOf(kit);
}

/** data.brand is reserved while a kit is selected (400 brand_data_conflict). */
export function checkBrandData(data: Record<string, unknown>, brand: BrandValues | null): void {
  if (brand && Object.hasOwn(data, 'brand')) {
    throw new DomainError('brand_data_conflict', { details: [{ field: 'data/brand', reason: 'invalid value' }] });
  }
}
