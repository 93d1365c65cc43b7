import { DomainError, listRenders, listTemplateNames, mintDownloadLink, type RenderJobRecord, requestRenderThumbnails } from '@svc/core';
import Link from 'next/link';
import { z } from 'zod';
import { requireSession } from '../../../src/dashboard/session.ts';
import { Button, buttonClass } from '../../../src/dashboard/ui/button.tsx';
import { Card, PageHeader } from '../../../src/dashboard/ui/card.tsx';
import { Field, Input, Select } from '../../../src/dashboard/ui/field.tsx';
import { LocalDate, LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import { EmptyState, ErrorState } from '../../../src/dashboard/ui/states.tsx';
import { rendersPath } from './ids.ts';
import { FileSize, RendersTabs, StateBadge } from './parts.tsx';
import { DrawnThumbnail } from './drawn-thumbnail.tsx';
import { RenderRowMenu } from './row-menu.tsx';

export const metadata = { title: 'Renders' };

const templatesPath = '/dashboard/templates';

const pageSize = 20;
const statuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
const extensions: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const Query = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  status: z.enum(statuses).optional().catch(undefined),
  cursor: z.string().max(128).optional().catch(undefined),
});

export default async function RenderHistory({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, accountId, csrfToken } = await requireSession();
  const query = Query.parse(await searchParams);
  const q = query.q || undefined;
  let page: Awaited<ReturnType<typeof listRenders>> | null = null;
  try {
    page = await listRenders(ctx, { accountId, q, matchIdAndFilename: true, status: query.status, limit: pageSize, cursor: query.cursor });
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'invalid_cursor')) throw error;
  }
  const now = ctx.clock();
  const links = page ? await Promise.all(page.items.map((job) => mintDownloadLink(ctx, job))) : [];
  // the worker draws the first page of shown PDFs that have none yet; their rows show it once it is there
  const drawing = new Set(page ? await requestRenderThumbnails(ctx, { accountId, jobs: page.items }) : []);
  const templateNames = await listTemplateNames(ctx, { accountId, templateIds: page ? page.items.flatMap((job) => (job.templateId ? [job.templateId] : [])) : [] });
  const filtered = q !== undefined || query.status !== undefined;
  const nextHref = page?.nextCursor ? `${rendersPath}?${new URLSearchParams({ ...(q ? { q } : {}), ...(query.status ? { status: query.status } : {}), cursor: page.nextCursor })}` : null;
  return (
    <>
      <PageHeader title="Renders" description="Every PDF and image you rendered, newest first. Files are kept for the retention period, then expire." />
      <RendersTabs current="history" />
      <Card aria-labelledby="history-heading">
        <h2 id="history-heading" className="sr-only">
          Render history
        </h2>
        <form method="get" action={rendersPath} role="search" className="mb-4 flex flex-wrap items-end gap-3">
          <Field id="render-search" label="Search" hint="A render id, file name, reference, template name or file type." className="min-w-56 flex-1">
            <Input id="render-search" name="q" type="search" defaultValue={q ?? ''} maxLength={200} aria-describedby="render-search-hint" />
          </Field>
          <Field id="render-status" label="Status">
            <Select id="render-status" name="status" defaultValue={query.status ?? ''}>
              <option value="">Any status</option>
              {statuses.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex gap-2 pb-5">
            <Button type="submit">Apply</Button>
            {filtered ? (
              <Link href={rendersPath} className={buttonClass('secondary')}>
                Clear
              </Link>
            ) : null}
          </div>
        </form>
        {!page ? (
          <ErrorState title="This page of the history no longer exists.">
            <Link className="underline" href={rendersPath}>
              Back to the newest renders
            </Link>
          </ErrorState>
        ) : page.items.length === 0 ? (
          <EmptyState title={filtered ? 'No render matches' : 'No renders yet'}>
            {filtered ? 'Try another search or status.' : 'Renders you make with the API or the template editor are listed here.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="Renders">
            {page.items.map((job, index) => (
              <RenderRow
                key={job.id}
                job={job}
                downloadable={links[index] !== null}
                drawing={drawing.has(job.id)}
                templateName={job.templateId ? templateNames.get(job.templateId) : undefined}
                csrfToken={csrfToken}
                expired={job.expiresAt !== null && job.expiresAt <= now}
              />
            ))}
          </ul>
        )}
        {page && (nextHref || query.cursor) ? (
          <nav aria-label="Pages" className="mt-4 flex justify-between gap-2">
            {query.cursor ? (
              <Link className={buttonClass('secondary')} href={`${rendersPath}?${new URLSearchParams({ ...(q ? { q } : {}), ...(query.status ? { status: query.status } : {}) })}`}>
                Newest
              </Link>
            ) : (
              <span />
            )}
            {nextHref ? (
              <Link className={buttonClass('secondary')} href={nextHref}>
                Older renders
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Card>
    </>
  );
}

interface RenderRowProps {
  job: RenderJobRecord;
  /** The file is kept: it can be downloaded, viewed and shown small. */
  downloadable: boolean;
  /** The worker was asked to draw this PDF's first page: the row shows it once it is there. */
  drawing: boolean;
  expired: boolean;
  /** The name of the template the render came from, when it came from one (null: unnamed). */
  templateName: string | null | undefined;
  csrfToken: string;
}

function RenderRow({ job, downloadable, drawing, expired, templateName, csrfToken }: RenderRowProps) {
  const extension = job.mediaType ? extensions[job.mediaType] : job.kind === 'pdf' ? 'pdf' : null;
  const name = extension ? `${job.filename}.${extension}` : job.filename;
  const finished = job.status !== 'queued' && job.status !== 'running';
  return (
    <li className="flex flex-wrap items-start gap-4 py-4" data-testid="render-row" data-render-id={job.id}>
      <Thumbnail job={job} name={name} downloadable={downloadable} drawing={drawing} />
      {/* wide enough to read on a phone: the buttons wrap under it instead of squeezing it */}
      <div className="min-w-48 flex-1 basis-48">
        <div className="flex flex-wrap items-center gap-2">
          <Link href={`${rendersPath}/${job.id}`} className="font-medium break-all text-indigo-700 underline">
            {name}
          </Link>
          <StateBadge state={job.status} />
          {job.removedReason ? <span className="text-xs text-slate-600">file {job.removedReason === 'deleted' ? 'deleted' : 'expired'}</span> : expired && job.status === 'succeeded' ? <span className="text-xs text-slate-600">file expired</span> : null}
        </div>
        <p className="mt-1 font-mono text-xs break-all text-slate-600">{job.id}</p>
        <p className="mt-1 text-xs text-slate-600">
          <LocalDate value={job.createdAt} />
          {job.byteSize !== null ? (
            <>
              {' · '}
              <FileSize bytes={job.byteSize} />
            </>
          ) : null}
          {job.reference ? <> · reference {job.reference}</> : null}
          {job.templateId && job.templateVersion !== null ? (
            <>
              {' · template '}
              <Link href={`${templatesPath}/${job.templateId}?version=${job.templateVersion}`} className="text-indigo-700 underline" data-testid="render-template">
                {templateName ?? 'Untitled template'} v{job.templateVersion}
              </Link>
            </>
          ) : null}
          {job.errorCode ? (
            <>
              {' · '}
              <span className="font-mono text-red-800">{job.errorCode}</span>
            </>
          ) : null}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {downloadable ? (
          <>
            <a className={buttonClass('secondary')} href={`${rendersPath}/${job.id}/view`} target="_blank" rel="noopener" aria-label={`View ${name} in a new tab`}>
              View
            </a>
            <a className={buttonClass('secondary')} href={`${rendersPath}/${job.id}/download`} aria-label={`Download ${name}`}>
              Download
            </a>
          </>
        ) : null}
        {finished && !(job.status === 'succeeded' && job.removedReason) ? (
          <RenderRowMenu
            renderId={job.id}
            name={name}
            csrfToken={csrfToken}
            deleteEffect={job.status === 'succeeded' ? 'The file is removed now and its download links stop working. The record stays in the history.' : 'The render leaves the history.'}
          />
        ) : null}
      </div>
    </li>
  );
}

/**
 * The file shown small: an image's own pixels scaled down, a PDF's first page as the worker drew
 * it. A PDF without one (not drawn yet, encrypted, or its file gone) shows a PDF mark with its
 * page count, so the row never holds a broken image; one the worker is drawing now turns into
 * its page when that is there.
 */
function Thumbnail({ job, name, downloadable, drawing }: { job: RenderJobRecord; name: string; downloadable: boolean; drawing: boolean }) {
  const box = 'flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50';
  const drawn = job.kind === 'image' || job.thumbnailKey !== null;
  if (downloadable && drawn) {
    return (
      <div className={box}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a private, session-checked thumbnail route, not a static asset */}
        <img
          src={`${rendersPath}/${job.id}/thumbnail`}
          alt={job.kind === 'pdf' ? `First page of ${name}` : `Thumbnail of ${job.filename}`}
          loading="lazy"
          className="max-h-full max-w-full object-contain"
          data-testid="render-thumbnail"
        />
      </div>
    );
  }
  if (job.kind === 'pdf') {
    const mark = (
      <div className="text-center" data-testid="pdf-mark">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto size-7 text-red-700" fill="none" stroke="currentColor" strokeWidth={1.5}>
          <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z" />
          <path d="M14 3v5h5" />
        </svg>
        <p className="text-[11px] leading-tight font-semibold text-slate-700">
          PDF
          {job.pageCount !== null ? (
            <>
              <br />
              <LocalNumber value={job.pageCount} /> {job.pageCount === 1 ? 'page' : 'pages'}
            </>
          ) : null}
        </p>
      </div>
    );
    return (
      <div className={box}>
        {downloadable && drawing ? (
          <DrawnThumbnail src={`${rendersPath}/${job.id}/thumbnail`} alt={`First page of ${name}`}>
            {mark}
          </DrawnThumbnail>
        ) : (
          mark
        )}
      </div>
    );
  }
  return (
    <div className={box} aria-hidden="true">
      <span className="text-xs text-slate-600">{job.kind === 'image' ? 'Image' : 'PDF'}</span>
    </div>
  );
}
