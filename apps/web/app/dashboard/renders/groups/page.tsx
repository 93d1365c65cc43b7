import { DomainError, listRenderGroups, type RenderGroupView } from '@svc/core';
import Link from 'next/link';
import { z } from 'zod';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { buttonClass } from '../../../../src/dashboard/ui/button.tsx';
import { Card, PageHeader } from '../../../../src/dashboard/ui/card.tsx';
import { LocalDate, LocalNumber } from '../../../../src/dashboard/ui/local-format.tsx';
import { ProgressBar } from '../../../../src/dashboard/ui/progress.tsx';
import { EmptyState, ErrorState } from '../../../../src/dashboard/ui/states.tsx';
import { Table, Td, Th } from '../../../../src/dashboard/ui/table.tsx';
import { groupsPath } from '../ids.ts';
import { groupKindLabels, RendersTabs, StateBadge } from '../parts.tsx';
import { RefreshWhile } from '../refresh-while.tsx';
import { finishedMembers, groupActive } from './progress.ts';

export const metadata = { title: 'Batches, carousels and packs' };

const pageSize = 20;
const Query = z.object({ cursor: z.string().max(128).optional().catch(undefined) });

export default async function RenderGroups({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, accountId } = await requireSession();
  const { cursor } = Query.parse(await searchParams);
  let page: Awaited<ReturnType<typeof listRenderGroups>> | null = null;
  try {
    page = await listRenderGroups(ctx, { accountId, limit: pageSize, cursor });
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'invalid_cursor')) throw error;
  }
  return (
    <>
      <PageHeader title="Renders" description="Batches (one template, many rows of data), carousels and image packs, with each member's progress." />
      <RendersTabs current="groups" />
      <RefreshWhile active={page?.items.some(groupActive) ?? false} intervalMs={2000} />
      <Card aria-labelledby="groups-heading">
        <h2 id="groups-heading" className="mb-4 text-base font-semibold text-slate-900">
          Batches, carousels and image packs
        </h2>
        {!page ? (
          <ErrorState title="This page of the list no longer exists.">
            <Link className="underline" href={groupsPath}>
              Back to the newest
            </Link>
          </ErrorState>
        ) : page.items.length === 0 ? (
          <EmptyState title="No batches, carousels or image packs yet">
            Create one with the API (POST /v1/batches, /v1/carousels or /v1/image-packs) and follow it here.
          </EmptyState>
        ) : (
          <Table caption="Batches, carousels and image packs, newest first">
            <thead>
              <tr>
                <Th>Group</Th>
                <Th>State</Th>
                <Th className="min-w-40">Progress</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.items.map((view) => (
                <GroupRow key={view.group.id} view={view} />
              ))}
            </tbody>
          </Table>
        )}
        {page && (page.nextCursor || cursor) ? (
          <nav aria-label="Pages" className="mt-4 flex justify-between gap-2">
            {cursor ? (
              <Link className={buttonClass('secondary')} href={groupsPath}>
                Newest
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor ? (
              <Link className={buttonClass('secondary')} href={`${groupsPath}?${new URLSearchParams({ cursor: page.nextCursor })}`}>
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Card>
    </>
  );
}

function GroupRow({ view }: { view: RenderGroupView }) {
  const { group } = view;
  const counts = finishedMembers(view);
  return (
    <tr data-testid="group-row" data-group-id={group.id}>
      <Td>
        <Link href={`${groupsPath}/${group.id}`} className="font-medium text-indigo-700 underline">
          {groupKindLabels[group.kind]} of <LocalNumber value={counts.total} /> · {group.format.toUpperCase()}
        </Link>
        <p className="font-mono text-xs break-all text-slate-600">{group.id}</p>
      </Td>
      <Td>
        <StateBadge state={view.state} />
      </Td>
      <Td>
        <ProgressBar value={counts.finished} max={counts.total} label={`Members finished in ${group.id}`} tone={counts.failed > 0 ? 'warning' : 'info'} />
        <p className="mt-1 text-xs text-slate-600">
          <LocalNumber value={counts.finished} /> of <LocalNumber value={counts.total} /> finished
        </p>
      </Td>
      <Td>
        <LocalDate value={group.createdAt} />
      </Td>
    </tr>
  );
}
