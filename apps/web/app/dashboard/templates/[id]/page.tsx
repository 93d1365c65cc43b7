import { DomainError, defaultBrandKitId, findStarter, getBrandKit, getTemplate, getTemplateVersion, listTemplateVersions, starterSampleData } from '@svc/core';
import type { SizeVariant } from '@svc/contracts';
import { notFound } from 'next/navigation';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { ArchiveForm } from '../../../../src/dashboard/templates/archive-form.tsx';
import { RenameForm } from '../../../../src/dashboard/templates/rename-form.tsx';
import { canvasOf } from '../../../../src/dashboard/templates/source-facts.ts';
import { TemplateEditor } from '../../../../src/dashboard/templates/template-editor.tsx';
import type { OutputChoice } from '../../../../src/dashboard/templates/test-render-panel.tsx';
import { Badge } from '../../../../src/dashboard/ui/badge.tsx';
import { buttonClass } from '../../../../src/dashboard/ui/button.tsx';

export const metadata = { title: 'Template editor' };

type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A foreign, unknown or malformed id is the dashboard's 404, as it is the API's. */
async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'not_found' || error.code === 'template_not_found')) notFound();
    throw error;
  }
}

export default async function TemplateEditorPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const session = await requireSession();
  const { id } = await params;
  const search = await searchParams;
  const { template, latest } = await orNotFound(getTemplate(session.ctx, { accountId: session.accountId, templateId: id }));
  const asked = one(search.version);
  const version = asked && asked !== String(latest.version) ? await orNotFound(getTemplateVersion(session.ctx, { accountId: session.accountId, templateId: id, version: asked })) : latest;
  const versions = await listTemplateVersions(session.ctx, { accountId: session.accountId, templateId: id, limit: 100 });

  // a template copied from a starter opens with the starter's sample data and output settings
  const fromStarter = one(search.from);
  const firstSource = version.version === 1 ? version.source : (await getTemplateVersion(session.ctx, { accountId: session.accountId, templateId: id, version: '1' })).source;
  const sample = starterSampleData(firstSource, fromStarter);
  const starter = findStarter(fromStarter ?? '') ?? undefined;
  const canvas = canvasOf(version.source);
  const output: OutputChoice =
    starter && starter.source === firstSource
      ? starter.output
      : canvas
        ? { type: 'image', format: 'png', width: canvas.width, height: canvas.height }
        : { type: 'pdf' };

  // the visual editor offers the colours and fonts of the kit the source names (an archived or unknown kit offers none)
  const kitId = defaultBrandKitId(version.source);
  const brandKit = kitId
    ? await getBrandKit(session.ctx, { accountId: session.accountId, brandKitId: kitId }).then(
        ({ kit, assets }) =>
          kit.archivedAt === null
            ? { id: kit.id, name: kit.name, colours: kit.colours, fonts: assets.flatMap((asset) => (asset.kind === 'font' && asset.fontFamily ? [asset.fontFamily] : [])) }
            : null,
        () => null,
      )
    : null;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1">
          <h1 className="text-xl font-semibold tracking-tight text-slate-900">{template.name ?? 'Untitled template'}</h1>
          <span className="inline-flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <span className="font-mono text-xs">{template.id}</span>
            {template.tags.map((tag) => (
              <Badge key={tag}>{tag}</Badge>
            ))}
            {template.archivedAt ? <Badge tone="warning">Archived</Badge> : null}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          <a className={buttonClass('secondary')} href="/dashboard/templates">
            All templates
          </a>
          <ArchiveForm csrfToken={session.csrfToken} templateId={template.id} archived={template.archivedAt !== null} />
        </div>
      </div>
      <TemplateEditor
        // one editor per template: a save hands it the new version without starting it over
        key={template.id}
        csrfToken={session.csrfToken}
        template={{ id: template.id, name: template.name, inputMode: template.inputMode, archived: template.archivedAt !== null, latestVersion: template.latestVersion }}
        version={{ version: version.version, source: version.source, schema: version.schema, sizes: version.sizes as unknown as SizeVariant[] }}
        versions={versions.items.map((item) => ({ version: item.version, createdAt: item.createdAt.toISOString() }))}
        initialData={sample}
        output={output}
        justSaved={one(search.saved) === String(version.version)}
        brandKit={brandKit}
        details={<RenameForm csrfToken={session.csrfToken} templateId={template.id} name={template.name} tags={template.tags} />}
      />
    </div>
  );
}
