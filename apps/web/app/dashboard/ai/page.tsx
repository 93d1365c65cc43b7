import { randomUUID } from 'node:crypto';
import type { TemplateBuildInput } from '@svc/contracts';
import { listBrandKits, listTemplateBuilds, listTemplates } from '@svc/core';
import Link from 'next/link';
import { requireSession } from '../../../src/dashboard/session.ts';
import { Badge } from '../../../src/dashboard/ui/badge.tsx';
import { buttonClass } from '../../../src/dashboard/ui/button.tsx';
import { Card, CardHeader, PageHeader } from '../../../src/dashboard/ui/card.tsx';
import { Field, Select } from '../../../src/dashboard/ui/field.tsx';
import { LocalDate, LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import { EmptyState } from '../../../src/dashboard/ui/states.tsx';
import { startBuild } from './actions.ts';
import { MessageForm } from './message-form.tsx';
import { pricesOf } from './prices.ts';
import { ProviderNotice } from './provider-notice.tsx';
import { BrandKitField } from './brand-kit-field.tsx';

export const metadata = { title: 'AI' };

export default async function Ai() {
  const { ctx, accountId, csrfToken } = await requireSession();
  const [kits, builds, templates] = await Promise.all([
    listBrandKits(ctx, { accountId, status: 'active', limit: 100 }),
    listTemplateBuilds(ctx, { accountId, limit: 50 }),
    listTemplates(ctx, { accountId, status: 'active', limit: 100 }),
  ]);
  const providerAvailable = ctx.aiProvider !== null;
  return (
    <>
      <PageHeader title="AI" description="Build a template from words, HTML or an image in your brand, or change a saved template by chat." />
      {providerAvailable ? null : <ProviderNotice />}
      <div className="grid gap-6">
        <Card aria-labelledby="build-heading">
          <CardHeader
            id="build-heading"
            title="Start a build"
            description={
              providerAvailable
                ? 'The model writes a template in your brand kit, checks it, renders a preview and reviews it. Builds are paid from trial, pack or subscription credits (not free monthly credits).'
                : 'Paste a template source: it is checked, previewed and becomes the draft as written, at no cost.'
            }
          />
          {kits.items.length === 0 ? (
            <EmptyState
              title="A build needs a brand kit"
              action={
                <Link href="/dashboard/brand-kits/new" className={buttonClass('primary')}>
                  Create a brand kit
                </Link>
              }
            >
              The model uses its colours, fonts, logo and tone.
            </EmptyState>
          ) : (
            <MessageForm
              action={startBuild}
              csrfToken={csrfToken}
              hidden={{ idempotency_key: randomUUID() }}
              prices={pricesOf(false)}
              submitLabel="Start build"
              providerAvailable={providerAvailable}
              idPrefix="build"
            >
              <BrandKitField id="build-kit" kits={kits.items} />
            </MessageForm>
          )}
        </Card>

        <Card aria-labelledby="chat-heading">
          <CardHeader id="chat-heading" title="Chat on a saved template" description="Ask for a change; the draft is previewed and you apply it as the template's next version, or discard it." />
          {templates.items.length === 0 ? (
            <EmptyState title="No saved templates yet">Publish a build, or save a template on the Templates page.</EmptyState>
          ) : (
            <form action="/dashboard/ai/chat" method="get" className="flex flex-wrap items-end gap-3">
              <Field id="chat-template" label="Template">
                <Select id="chat-template" name="template_id" className="max-w-sm">
                  {templates.items.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.name ?? template.id}
                    </option>
                  ))}
                </Select>
              </Field>
              <button type="submit" className={buttonClass('secondary')}>
                Open chat
              </button>
            </form>
          )}
        </Card>

        <Card aria-labelledby="builds-heading">
          <CardHeader id="builds-heading" title="Your builds" />
          {builds.length === 0 ? (
            <EmptyState title="No builds yet">Start one above.</EmptyState>
          ) : (
            <ul className="divide-y divide-slate-200" aria-label="Builds">
              {builds.map(({ build, first, newest }) => {
                const input = first.input as TemplateBuildInput;
                const title = input.type === 'prompt' ? input.prompt : input.type === 'html' ? 'From HTML' : input.type === 'image' ? 'From an image' : 'From a source';
                return (
                  <li key={build.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="ai-build">
                    <div className="min-w-0">
                      <Link href={`/dashboard/ai/builds/${build.id}`} className="line-clamp-1 font-medium text-indigo-700 underline-offset-2 hover:underline">
                        {title.length > 120 ? `${title.slice(0, 120)}…` : title}
                      </Link>
                      <p className="text-xs text-slate-600">
                        Changed <LocalDate value={build.updatedAt} /> · <LocalNumber value={newest.credits} /> credits last message
                        {build.publishedTemplateId ? ` · published as ${build.publishedTemplateId}` : ''}
                      </p>
                    </div>
                    <Badge tone={newest.state === 'succeeded' ? 'success' : newest.state === 'failed' ? 'danger' : 'info'}>{newest.state}</Badge>
                  </li>
                );
              })}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
