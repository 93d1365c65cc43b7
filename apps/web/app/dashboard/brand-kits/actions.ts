'use server';
// The Brand kits pages' writes, each through its core use-case: create, change, archive and
// restore a kit, and add or replace its logos and fonts (the upload checks of the API apply).
import { BrandKitId } from '@svc/contracts';
import { archiveBrandKit, createBrandAsset, createBrandKit, replaceBrandAsset, updateBrandKit } from '@svc/core';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { formFields, sessionAction } from '../../../src/dashboard/actions.ts';

const listPath = '/dashboard/brand-kits';
const kitPath = (id: string) => `${listPath}/${id}`;

/** The kit's fields as the form sends them: colours as a repeated field, tone as text (empty clears it). */
const KitFields = z.object({
  name: z.string(),
  colours: formFields.many(z.string()),
  tone_guidance: z.string().optional(),
});

/** Forms send a textarea's line breaks as CRLF; the kit keeps them as the user sees them, LF. */
function toneOf(text: string | undefined): string | null {
  return text === undefined || text.trim() === '' ? null : text.replace(/\r\n?/g, '\n');
}

export const createKit = sessionAction(KitFields, async ({ name, colours, tone_guidance }, { ctx, accountId }) => {
  const { kit } = await createBrandKit(ctx, { accountId, request: { name, colours, tone_guidance: toneOf(tone_guidance) } });
  revalidatePath(listPath);
  redirect(`${kitPath(kit.id)}?created=1`);
});

export const updateKit = sessionAction(KitFields.extend({ brand_kit_id: BrandKitId }), async ({ brand_kit_id, name, colours, tone_guidance }, { ctx, accountId }) => {
  await updateBrandKit(ctx, { accountId, brandKitId: brand_kit_id, changes: { name, colours, tone_guidance: toneOf(tone_guidance) } });
  revalidatePath(kitPath(brand_kit_id));
  revalidatePath(listPath);
  return null;
});

const OneKit = z.object({ brand_kit_id: BrandKitId });

export const archiveKit = sessionAction(OneKit, async ({ brand_kit_id }, { ctx, accountId }) => {
  await archiveBrandKit(ctx, { accountId, brandKitId: brand_kit_id });
  revalidatePath(kitPath(brand_kit_id));
  revalidatePath(listPath);
  return null;
});

export const restoreKit = sessionAction(OneKit, async ({ brand_kit_id }, { ctx, accountId }) => {
  await updateBrandKit(ctx, { accountId, brandKitId: brand_kit_id, changes: { archived_at: null } });
  revalidatePath(kitPath(brand_kit_id));
  revalidatePath(listPath);
  return null;
});

const Upload = OneKit.extend({
  file: z.instanceof(File, { message: 'Choose a file' }).refine((file) => file.size > 0, 'Choose a file'),
  replaces: formFields.optionalText(64),
});

/** A logo (PNG, JPEG, WebP) or a WOFF2 font; the declared type is the browser's, checked against the bytes by the core. */
export const uploadAsset = sessionAction(Upload, async ({ brand_kit_id, file, replaces }, { ctx, principal }) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const declaredType = declaredTypeOf(file);
  const options = { principal, brandKitId: brand_kit_id, declaredType, bytes };
  const asset = replaces ? await replaceBrandAsset(ctx, { ...options, assetId: replaces }) : await createBrandAsset(ctx, options);
  revalidatePath(kitPath(brand_kit_id));
  return { id: asset.id, kind: asset.kind };
});

/** Browsers often send no type (or application/octet-stream) for .woff2 files: the name decides then. */
function declaredTypeOf(file: File): string | null {
  const type = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  if ((type === '' || type === 'application/octet-stream' || type === 'font/x-woff2' || type === 'application/font-woff2') && /\.woff2$/i.test(file.name)) return 'font/woff2';
  return type === '' ? null : type;
}
