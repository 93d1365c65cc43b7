import { DomainError, getRenderGroup, type GroupMemberView, mintArchiveLink, type RenderGroupView } from '@svc/core';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireSession } from '../../../../../src/dashboard/session.ts';
import { ActionForm } from '../../../../../src/dashboard/ui/action-form.tsx';
import { buttonClass } from '../../../../../src/dashboard/ui/button.tsx';
import { Card, CardHeader, PageHeader } from '../../../../../src/dashboard/ui/card.tsx';
import { LocalDate, LocalNumber } from '../../../../../src/dashboard/ui/local-format.tsx';
import { ProgressBar } from '../../../../../src/dashboard/ui/progress.tsx';
import { cancelGroup, retryGroup } from '../../actions.ts';
import { groupKindOf, groupsPath, rendersPath } from '../../ids.ts';
import { groupKindLabels, StateBadge } from '../../parts.tsx';
import { RefreshWhile } from '../../refresh-while.tsx';
import { finishedMembers, groupActive } from '../progress.ts';
import { RetryForm } from './retry-form.tsx';

export const metadata = { title: 'Group' };

async function loadGroup(id: string): Promise<{ view: RenderGroupView; archiveUrl: string | null; csrfToken: string }> {
  const { ctx, accountId, csrfToken } = await requireSession();
  const kind = groupKindOf(id);
  if (!kind) notFound();
  try {
    const view = await getRenderGroup(ctx, { accountId, kind, groupId: id });
    return { view, archiveUrl: await mintArchiveLink(ctx, view), csrfToken };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') notFound();
    throw error;
  }
}

export default async function RenderGroupPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { view, archiveUrl, csrfToken } = await loadGroup(id);
  const { group } = view;
  const counts = finishedMembers(view);
  const active = groupActive(view);
  const retryable = view.members.some((member) => member.state === 'failed' || (group.kind === 'batch' && member.state === 'cancelled'));
  const title = `${groupKindLabels[group.kind]} of ${counts.total}`;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={groupsPath} className="text-indigo-700 underline">
          ← Batches, carousels and packs
        </Link>
      </p>
      <PageHeader
        title={title}
        description={
          <>
            <span className="font-mono break-all">{group.id}</span> · {group.format.toUpperCase()} · template <span className="font-mono">{group.templateId}</span> version{' '}
            {group.templateVersion} · created <LocalDate value={group.createdAt} />
          </>
        }
      />
      <RefreshWhile active={active} />
      <div className="grid gap-6">
        <Card aria-labelledby="group-progress-heading">
          <CardHeader
            id="group-progress-heading"
            title="Progress"
            actions={
              archiveUrl ? (
                <a className={buttonClass('primary')} href={archiveUrl} download data-testid="archive-link">
                  Download archive (ZIP)
                </a>
              ) : null
            }
          />
          <div className="flex flex-wrap items-center gap-3" aria-live="polite">
            <StateBadge state={view.state} />
            <span className="text-sm text-slate-700" data-testid="group-progress">
              <LocalNumber value={counts.finished} /> of <LocalNumber value={counts.total} /> finished · <LocalNumber value={counts.succeeded} /> succeeded
              {counts.failed > 0 ? (
                <>
                  {' · '}
                  <LocalNumber value={counts.failed} /> failed
                </>
              ) : null}
            </span>
          </div>
          <ProgressBar className="mt-3" value={counts.finished} max={counts.total} label="Members finished" tone={view.state === 'complete' ? 'success' : counts.failed > 0 ? 'warning' : 'info'} />
          {active ? <p className="mt-2 text-xs text-slate-600">This page updates itself while members render.</p> : null}
          <div className="mt-4 flex flex-wrap gap-3">
            <RetryForm action={retryGroup} csrfToken={csrfToken} groupId={group.id} retryable={retryable} />
            {group.kind === 'batch' && active ? (
              <ActionForm
                action={cancelGroup}
                csrfToken={csrfToken}
                submitLabel="Cancel batch"
                submitVariant="danger"
                inline
                confirm={{
                  title: 'Cancel this batch?',
                  body: 'Rows that have not started are cancelled and their credits released. Rows already rendering finish, and finished files stay.',
                  confirmLabel: 'Cancel batch',
                }}
              >
                <input type="hidden" name="group_id" value={group.id} />
              </ActionForm>
            ) : null}
          </div>
        </Card>
        <Card aria-labelledby="members-heading">
          <CardHeader id="members-heading" title={group.kind === 'batch' ? 'Rows' : 'Members'} />
          <ol className="divide-y divide-slate-200" aria-label={group.kind === 'batch' ? 'Rows' : 'Members'}>
            {view.members.map((member) => (
              <MemberRow key={member.position} member={member} />
            ))}
          </ol>
        </Card>
      </div>
    </>
  );
}

const memberProgress: Record<GroupMemberView['state'], number> = { queued: 0, running: 50, succeeded: 100, failed: 100, cancelled: 100 };
const memberTone = { queued: 'info', running: 'info', succeeded: 'success', failed: 'danger', cancelled: 'warning' } as const;

function MemberRow({ member }: { member: GroupMemberView }) {
  const label = member.label ?? member.name ?? `Row ${member.position + 1}`;
  const name = member.name && member.label ? `${member.label}: ${member.name}` : label;
  const size = member.width && member.height ? `${member.width} × ${member.height}` : null;
  const downloadable = member.job?.status === 'succeeded' && member.job.removedReason === null;
  return (
    <li className="grid gap-2 py-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-center sm:gap-4" data-testid="group-member">
      <div className="min-w-0">
        <p className="truncate text-sm font-medium" title={name}>
          {member.position + 1}. {name}
        </p>
        {size ? <p className="text-xs text-slate-600">{size} px</p> : null}
      </div>
      <div className="flex items-center gap-3">
        <ProgressBar value={memberProgress[member.state]} max={100} label={`${name}: ${member.state}`} tone={memberTone[member.state]} className={member.state === 'running' ? 'animate-pulse' : undefined} />
        <StateBadge state={member.state} />
      </div>
      <div className="flex items-center gap-2 text-xs">
        {member.errorCode ? <span className="font-mono text-red-800">{member.errorCode}</span> : null}
        {downloadable && member.job ? (
          <a className="text-indigo-700 underline" href={`${rendersPath}/${member.job.id}/download`} aria-label={`Download ${name}`}>
            Download
          </a>
        ) : null}
      </div>
    </li>
  );
}
