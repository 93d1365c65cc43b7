import { listTemplates } from '@svc/core';
import { requireSession } from '../../../src/dashboard/session.ts';
import { NewTemplateForm } from '../../../src/dashboard/templates/new-template-form.tsx';
import { Badge } from '../../../src/dashboard/ui/badge.tsx';
import { buttonClass } from '../../../src/dashboard/ui/button.tsx';
import { Card, CardHeader, PageHeader } from '../../../src/dashboard/ui/card.tsx';
import { Input, Label, Select } from '../../../src/dashboard/ui/field.tsx';
import { LocalDate } from '../../../src/dashboard/ui/local-format.tsx';
import { EmptyState } from '../../../src/dashboard/ui/states.tsx';
import { Table, Td, Th, Tr } from '../../../src/dashboard/ui/table.tsx';

export const metadata = { title: 'Templates' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const statuses = ['active', 'archived', 'all'] as const;

/** Saved templates: search by name, filter by tag and archive state, newest first. */
export default async function Templates({ searchParams }: { searchParams: Search }) {
  const session = await requireSession();
  const params = await searchParams;
  const q = one(params.q)?.slice(0, 120) ?? '';
  const tag = one(params.tag) || undefined;
  const status = statuses.find((value) => value === one(params.status)) ?? 'active';
  const cursor = one(params.cursor) || undefined;
  const page = await listTemplates(session.ctx, { accountId: session.accountId, status, q, tag, limit: 20, cursor }).catch(() =>
    // an unreadable cursor (an edited address) starts from the first page
    listTemplates(session.ctx, { accountId: session.accountId, status, q, tag, limit: 20 }),
  );
  const filtered = q !== '' || tag !== undefined || status !== 'active';
  const next = page.nextCursor ? `?${new URLSearchParams({ q, ...(tag ? { tag } : {}), status, cursor: page.nextCursor })}` : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Templates"
        description="Your saved templates, their versions, and the starter gallery."
        actions={
          <a className={buttonClass('secondary')} href="/dashboard/templates/gallery">
            Starter gallery
          </a>
        }
      />

      <Card aria-labelledby="find-title">
        <CardHeader id="find-title" title="Find a template" />
        <form method="get" className="grid gap-3 sm:grid-cols-[1fr_12rem_10rem_auto] sm:items-end" role="search">
          <div className="space-y-1">
            <Label htmlFor="template-q">Name contains</Label>
            <Input id="template-q" name="q" type="search" defaultValue={q} maxLength={120} />
          </div>
          <div className="space-y-1">
            <Label htmlFor="template-tag">Tag</Label>
            <Select id="template-tag" name="tag" defaultValue={tag ?? ''}>
              <option value="">Any tag</option>
              {page.tagOptions.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1">
            <Label htmlFor="template-status">Show</Label>
            <Select id="template-status" name="status" defaultValue={status}>
              <option value="active">Active</option>
              <option value="archived">Archived</option>
              <option value="all">All</option>
            </Select>
          </div>
          <button type="submit" className={buttonClass('primary')}>
            Search
          </button>
        </form>
      </Card>

      <Card aria-labelledby="list-title">
        <CardHeader id="list-title" title={filtered ? 'Matching templates' : 'Your templates'} />
        {page.items.length === 0 ? (
          <EmptyState
            title={filtered ? 'No template matches these filters.' : 'No templates yet.'}
            action={
              filtered ? (
                <a className={buttonClass('secondary')} href="/dashboard/templates">
                  Clear the filters
                </a>
              ) : (
                <a className={buttonClass('primary')} href="/dashboard/templates/gallery">
                  Start from the gallery
                </a>
              )
            }
          >
            {filtered ? null : 'Start from a starter in the gallery, or create one below.'}
          </EmptyState>
        ) : (
          <Table caption="Templates, newest first">
            <thead>
              <Tr>
                <Th>Name</Th>
                <Th>Tags</Th>
                <Th>Kind</Th>
                <Th>Latest version</Th>
                <Th>Created</Th>
              </Tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.items.map((template) => (
                <Tr key={template.id}>
                  <Td>
                    <a className="font-medium text-indigo-700 underline" href={`/dashboard/templates/${template.id}`}>
                      {template.name ?? template.id}
                    </a>
                    {template.archivedAt ? (
                      <Badge tone="warning" className="ml-2">
                        Archived
                      </Badge>
                    ) : null}
                  </Td>
                  <Td>
                    <div className="flex flex-wrap gap-1">
                      {template.tags.map((item) => (
                        <a key={item} href={`?${new URLSearchParams({ tag: item, status })}`} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800 hover:bg-slate-200">
                          {item}
                        </a>
                      ))}
                    </div>
                  </Td>
                  <Td>{template.inputMode === 'blank' ? 'Canvas' : 'HTML'}</Td>
                  <Td>{template.latestVersion}</Td>
                  <Td>
                    <LocalDate value={template.createdAt.toISOString()} style="date" />
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        {next ? (
          <div className="mt-4">
            <a className={buttonClass('secondary')} href={next}>
              Older templates
            </a>
          </div>
        ) : null}
      </Card>

      <Card aria-labelledby="new-title">
        <CardHeader id="new-title" title="New template" description="Start from a small skeleton; the editor opens when it is saved." />
        <NewTemplateForm csrfToken={session.csrfToken} />
      </Card>
    </div>
  );
}
