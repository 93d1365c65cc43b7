import { DomainError, getBrandKit } from '@svc/core';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { ActionForm } from '../../../../src/dashboard/ui/action-form.tsx';
import { Badge } from '../../../../src/dashboard/ui/badge.tsx';
import { Card, CardHeader, PageHeader } from '../../../../src/dashboard/ui/card.tsx';
import { Field, Input } from '../../../../src/dashboard/ui/field.tsx';
import { LocalDate, LocalNumber } from '../../../../src/dashboard/ui/local-format.tsx';
import { EmptyState, Notice } from '../../../../src/dashboard/ui/states.tsx';
import { archiveKit, restoreKit, updateKit, uploadAsset } from '../actions.ts';
import { KitForm } from '../kit-form.tsx';
import { Swatches } from '../swatches.tsx';

export const metadata = { title: 'Brand kit' };

const accepted = 'image/png,image/jpeg,image/webp,font/woff2,.woff2';

export default async function BrandKitPage({ params, searchParams }: { params: Promise<{ brand_kit_id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, accountId, csrfToken } = await requireSession();
  const { brand_kit_id } = await params;
  const found = await getBrandKit(ctx, { accountId, brandKitId: brand_kit_id }).catch((error: unknown) => {
    if (error instanceof DomainError && error.code === 'brand_kit_not_found') notFound();
    throw error;
  });
  const { kit, assets } = found;
  const archived = kit.archivedAt !== null;
  const justCreated = (await searchParams).created === '1';
  const assetUrl = (assetId: string) => `/dashboard/brand-kits/${kit.id}/assets/${assetId}`;
  const fonts = assets.filter((asset) => asset.kind === 'font');
  // logos are numbered among logos: "Logo 1" is brand.logo
  const logoNumbers = new Map(assets.filter((asset) => asset.kind === 'logo').map((asset, index) => [asset.id, index + 1]));
  const fontFaces = fonts.map((font) => `@font-face { font-family: "kit-font-${font.id}"; src: url("${assetUrl(font.id)}") format("woff2"); font-display: block; }`).join('\n');
  return (
    <>
      <PageHeader
        title={kit.name}
        description={
          <>
            <Link href="/dashboard/brand-kits" className="text-indigo-700 underline">
              Brand kits
            </Link>{' '}
            · <span className="font-mono">{kit.id}</span> · created <LocalDate value={kit.createdAt} />
          </>
        }
        actions={archived ? <Badge tone="warning">archived</Badge> : <Badge tone="success">active</Badge>}
      />
      {justCreated ? <Notice className="mb-6">Brand kit created. Add a logo and fonts below.</Notice> : null}
      {fontFaces ? <style dangerouslySetInnerHTML={{ __html: fontFaces }} /> : null}
      <div className="grid gap-6">
        {archived ? (
          <Card aria-labelledby="restore-heading">
            <CardHeader
              id="restore-heading"
              title="This kit is archived"
              description={
                <>
                  Archived <LocalDate value={kit.archivedAt!} />. It stays readable, but renders and AI builds cannot select it and it cannot change until you restore it.
                </>
              }
            />
            <ActionForm action={restoreKit} csrfToken={csrfToken} submitLabel="Restore kit" successMessage="Restored." inline>
              <input type="hidden" name="brand_kit_id" value={kit.id} />
            </ActionForm>
            <div className="mt-4">
              <Swatches colours={kit.colours} />
              {kit.toneGuidance ? <p className="mt-3 text-sm whitespace-pre-wrap text-slate-700">{kit.toneGuidance}</p> : null}
            </div>
          </Card>
        ) : (
          <Card aria-labelledby="details-heading">
            <CardHeader id="details-heading" title="Name, colours and tone" />
            <KitForm action={updateKit} csrfToken={csrfToken} submitLabel="Save changes" successMessage="Saved." kit={{ id: kit.id, name: kit.name, colours: kit.colours, toneGuidance: kit.toneGuidance }} />
          </Card>
        )}

        <Card aria-labelledby="assets-heading">
          <CardHeader id="assets-heading" title="Logos and fonts" description="Logos: PNG, JPEG or WebP, still, up to 10 MiB. Fonts: WOFF2 only. Templates read them as brand.logo, brand.logos and brand.fonts, in this order." />
          {!archived ? (
            <ActionForm action={uploadAsset} csrfToken={csrfToken} submitLabel="Upload" resetOnSuccess successMessage="Uploaded." className="mb-6">
              <input type="hidden" name="brand_kit_id" value={kit.id} />
              <Field id="asset-file" label="Logo or font file" hint="The file is checked like an API upload: image limits for logos, the font sanitiser and glyph count for fonts.">
                <Input id="asset-file" name="file" type="file" required accept={accepted} aria-describedby="asset-file-hint" className="max-w-md" />
              </Field>
            </ActionForm>
          ) : null}
          {assets.length === 0 ? (
            <EmptyState title="No logos or fonts yet">{archived ? 'Restore the kit to add some.' : 'Upload a logo or a WOFF2 font above.'}</EmptyState>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2" aria-label="Logos and fonts">
              {assets.map((asset) => (
                <li key={asset.id} className="rounded-md border border-slate-200 p-4" data-testid={asset.kind === 'font' ? 'font-asset' : 'logo-asset'}>
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <Badge tone="info">{asset.kind}</Badge>
                    <span className="font-medium">{asset.kind === 'font' ? asset.fontFamily : `Logo ${logoNumbers.get(asset.id)}`}</span>
                    <span className="text-xs text-slate-600">
                      <LocalNumber value={Math.ceil(asset.byteSize / 1024)} /> KiB
                      {asset.width && asset.height ? (
                        <>
                          {' '}
                          · <LocalNumber value={asset.width} /> × <LocalNumber value={asset.height} /> px
                        </>
                      ) : null}
                    </span>
                  </div>
                  {asset.kind === 'logo' ? (
                    // eslint-disable-next-line @next/next/no-img-element
                    <img src={assetUrl(asset.id)} alt={`Logo ${logoNumbers.get(asset.id)} of ${kit.name}`} className="mt-3 max-h-32 max-w-full rounded bg-[repeating-conic-gradient(#e2e8f0_0_25%,#fff_0_50%)] bg-[length:16px_16px] object-contain" />
                  ) : (
                    <p className="mt-3 text-2xl leading-snug break-words text-slate-900" style={{ fontFamily: `"kit-font-${asset.id}", monospace` }} data-testid="font-specimen" data-font-family={`kit-font-${asset.id}`}>
                      The quick brown fox jumps over the lazy dog 0123456789
                    </p>
                  )}
                  <p className="mt-2 font-mono text-xs text-slate-600">{asset.id}</p>
                  {!archived ? (
                    <ActionForm action={uploadAsset} csrfToken={csrfToken} submitLabel="Replace" submitVariant="secondary" resetOnSuccess successMessage="Replaced." className="mt-3">
                      <input type="hidden" name="brand_kit_id" value={kit.id} />
                      <input type="hidden" name="replaces" value={asset.id} />
                      <Field id={`replace-${asset.id}`} label={`New file for ${asset.kind === 'font' ? asset.fontFamily : `logo ${logoNumbers.get(asset.id)}`}`}>
                        <Input id={`replace-${asset.id}`} name="file" type="file" required accept={asset.kind === 'font' ? 'font/woff2,.woff2' : 'image/png,image/jpeg,image/webp'} />
                      </Field>
                    </ActionForm>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Card>

        {!archived ? (
          <Card aria-labelledby="archive-heading">
            <CardHeader id="archive-heading" title="Archive" description="An archived kit stays readable and can be restored; new renders and AI builds cannot select it. It still counts towards the plan's kits." />
            <ActionForm
              action={archiveKit}
              csrfToken={csrfToken}
              submitLabel="Archive kit"
              submitVariant="danger"
              inline
              confirm={{ title: `Archive ${kit.name}?`, body: 'Renders already queued keep the values they captured. You can restore the kit later.', confirmLabel: 'Archive' }}
            >
              <input type="hidden" name="brand_kit_id" value={kit.id} />
            </ActionForm>
          </Card>
        ) : null}
      </div>
    </>
  );
}
