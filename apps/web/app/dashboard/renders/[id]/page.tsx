import { DomainError, getRender, mintDownloadLink, type RenderJobRecord, reportOf } from '@svc/core';
import type { RenderReport } from '@svc/contracts';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ReportView } from '../../../../src/dashboard/report/report-view.tsx';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { buttonClass } from '../../../../src/dashboard/ui/button.tsx';
import { PageHeader } from '../../../../src/dashboard/ui/card.tsx';
import { LocalDate } from '../../../../src/dashboard/ui/local-format.tsx';
import { rendersPath, renderKindOf } from '../ids.ts';
import { StateBadge } from '../parts.tsx';
import { RefreshWhile } from '../refresh-while.tsx';

export const metadata = { title: 'Render' };

/** One render and its report; a foreign, unknown or malformed id is the dashboard's 404, as it is the API's. */
async function loadRender(id: string): Promise<{ job: RenderJobRecord; report: RenderReport; downloadable: boolean }> {
  const { ctx, accountId } = await requireSession();
  const kind = renderKindOf(id);
  if (!kind) notFound();
  try {
    const job = await getRender(ctx, { accountId, kind, jobId: id });
    return { job, report: reportOf(job), downloadable: (await mintDownloadLink(ctx, job)) !== null };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') notFound();
    throw error;
  }
}

export default async function RenderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { job, report, downloadable } = await loadRender(id);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={rendersPath} className="text-indigo-700 underline">
          ← Renders
        </Link>
      </p>
      <PageHeader
        title={job.filename}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span className="font-mono break-all">{job.id}</span>
            <StateBadge state={job.status} />
            <span>
              created <LocalDate value={job.createdAt} />
            </span>
            {job.errorCode ? <span className="font-mono text-red-800">{job.errorCode}</span> : null}
          </span>
        }
        actions={
          downloadable ? (
            <span className="flex gap-2">
              <a className={buttonClass('secondary')} href={`${rendersPath}/${job.id}/view`} target="_blank" rel="noopener" aria-label="View the file in a new tab">
                View
              </a>
              <a className={buttonClass('secondary')} href={`${rendersPath}/${job.id}/download`}>
                Download
              </a>
            </span>
          ) : null
        }
      />
      <RefreshWhile active={job.status === 'queued' || job.status === 'running'} />
      <ReportView report={report} />
    </>
  );
}
