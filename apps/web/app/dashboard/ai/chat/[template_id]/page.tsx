import { randomUUID } from 'node:crypto';
import type { ImageProposal } from '@svc/contracts';
import { DomainError, getTemplate, listBrandKits, listChatMessages, pendingStates, type TemplateMessageRecord, typicalMessageSeconds } from '@svc/core';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireSession } from '../../../../../src/dashboard/session.ts';
import { ActionForm } from '../../../../../src/dashboard/ui/action-form.tsx';
import { Badge } from '../../../../../src/dashboard/ui/badge.tsx';
import { Card, CardHeader, PageHeader } from '../../../../../src/dashboard/ui/card.tsx';
import { EmptyState, ErrorState } from '../../../../../src/dashboard/ui/states.tsx';
import { answerImageProposal, applyChat, cancelMessage, discardChat, sendChat } from '../../actions.ts';
import { MessageForm } from '../../message-form.tsx';
import { MessageList, type Preview, previewOf } from '../../message-list.tsx';
import { pricesOf } from '../../prices.ts';
import { ProviderNotice } from '../../provider-notice.tsx';
import { BrandKitField } from '../../brand-kit-field.tsx';

export const metadata = { title: 'Template chat' };

const decisionLabels: Record<string, string> = { saved: 'applied as a new version', kept: 'kept without saving', discarded: 'discarded' };

export default async function TemplateChat({ params }: { params: Promise<{ template_id: string }> }) {
  const { ctx, accountId, csrfToken } = await requireSession();
  const { template_id } = await params;
  const found = await getTemplate(ctx, { accountId, templateId: template_id }).catch((error: unknown) => {
    if (error instanceof DomainError && (error.code === 'not_found' || error.code === 'template_not_found')) notFound();
    throw error;
  });
  const { template } = found;
  const [{ chat, messages }, kits, typicalSeconds] = await Promise.all([
    listChatMessages(ctx, { accountId, templateId: template.id }),
    listBrandKits(ctx, { accountId, status: 'active', limit: 100 }),
    typicalMessageSeconds(ctx),
  ]);
  const previews = new Map<string, Preview>();
  await Promise.all(
    messages.map(async (message) => {
      const preview = message.state === 'succeeded' ? await previewOf(ctx, accountId, message.previewId) : null;
      if (preview) previews.set(message.id, preview);
    }),
  );
  const isPending = (message: TemplateMessageRecord) => (pendingStates as readonly string[]).includes(message.state);
  const busy = messages.some(isPending);
  const providerAvailable = ctx.aiProvider !== null;
  const archived = template.archivedAt !== null;
  const title = template.name ?? template.id;

  const actionsFor = (message: TemplateMessageRecord) => {
    const ids = (
      <>
        <input type="hidden" name="template_id" value={template.id} />
        <input type="hidden" name="message_id" value={message.id} />
      </>
    );
    if (isPending(message)) {
      return (
        <ActionForm action={cancelMessage} csrfToken={csrfToken} submitLabel="Cancel" submitVariant="secondary" inline>
          {ids}
        </ActionForm>
      );
    }
    if (message.decision) return <Badge tone="neutral">{decisionLabels[message.decision] ?? message.decision}{message.appliedVersion ? ` (version ${message.appliedVersion})` : ''}</Badge>;
    if (message.state !== 'succeeded' || chat?.draftMessageId !== message.id || archived) return null;
    return (
      <>
        <ActionForm action={applyChat} csrfToken={csrfToken} submitLabel="Apply as new version" successMessage="Saved as the template's next version." inline>
          {ids}
          <input type="hidden" name="save" value="true" />
        </ActionForm>
        <ActionForm action={discardChat} csrfToken={csrfToken} submitLabel="Discard" submitVariant="secondary" inline>
          {ids}
        </ActionForm>
      </>
    );
  };

  const extraFor = (message: TemplateMessageRecord) => {
    const proposal = message.imageProposal as ImageProposal | null;
    if (message.state !== 'succeeded' || !proposal) return null;
    const state = message.imageProposalState ?? 'pending';
    return (
      <div className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="image-proposal">
        <p className="font-medium text-amber-950">
          Suggested image <Badge tone={state === 'approved' ? 'success' : state === 'rejected' ? 'neutral' : 'warning'}>{state}</Badge>
        </p>
        <p className="mt-1 text-amber-950">{proposal.prompt}</p>
        <p className="mt-1 text-xs text-amber-900">
          Aspect ratio {proposal.aspect_ratio} · for layer <span className="font-mono">{proposal.target_layer_id}</span>. No image is generated and nothing is charged.
        </p>
        <div className="mt-2 flex flex-wrap gap-3">
          {state !== 'approved' ? (
            <ActionForm action={answerImageProposal} csrfToken={csrfToken} submitLabel="Approve suggestion" submitVariant="secondary" inline>
              <input type="hidden" name="template_id" value={template.id} />
              <input type="hidden" name="message_id" value={message.id} />
              <input type="hidden" name="answer" value="approve" />
            </ActionForm>
          ) : null}
          {state === 'pending' ? (
            <ActionForm action={answerImageProposal} csrfToken={csrfToken} submitLabel="Reject suggestion" submitVariant="ghost" inline>
              <input type="hidden" name="template_id" value={template.id} />
              <input type="hidden" name="message_id" value={message.id} />
              <input type="hidden" name="answer" value="reject" />
            </ActionForm>
          ) : null}
        </div>
      </div>
    );
  };

  return (
    <>
      <PageHeader
        title={`Chat: ${title}`}
        description={
          <>
            <Link href="/dashboard/ai" className="text-indigo-700 underline">
              AI
            </Link>{' '}
            · <span className="font-mono">{template.id}</span> · latest version {template.latestVersion}
          </>
        }
      />
      {providerAvailable ? null : <ProviderNotice />}
      <div className="grid gap-6">
        <Card aria-labelledby="chat-messages-heading">
          <CardHeader id="chat-messages-heading" title="Messages" description="Each message changes the chat's draft; apply the newest one as the template's next version, or discard it." />
          {messages.length === 0 ? (
            <EmptyState title="No messages yet">The first message starts from the latest version.</EmptyState>
          ) : (
            <MessageList messages={messages} previews={previews} csrfToken={csrfToken} now={ctx.clock()} typicalSeconds={typicalSeconds} actionsFor={actionsFor} extraFor={extraFor} />
          )}
        </Card>

        <Card aria-labelledby="send-heading">
          <CardHeader id="send-heading" title="Send a message" description={busy ? 'A message is running; send the next when it ends.' : 'All credits can pay for chat messages, free monthly credits included.'} />
          {archived ? (
            <ErrorState title="This template is archived" code="template_not_found">
              Restore it on the Templates page to chat on it.
            </ErrorState>
          ) : kits.items.length === 0 ? (
            <EmptyState title="A chat needs a brand kit">
              <Link href="/dashboard/brand-kits/new" className="text-indigo-700 underline">
                Create a brand kit
              </Link>{' '}
              first.
            </EmptyState>
          ) : (
            <MessageForm
              action={sendChat}
              csrfToken={csrfToken}
              hidden={{ template_id: template.id, idempotency_key: randomUUID() }}
              prices={pricesOf(true, chat === null && template.inputMode === 'blank')}
              submitLabel="Send"
              providerAvailable={providerAvailable}
              keepOutput
              idPrefix="chat"
            >
              <BrandKitField id="chat-kit" kits={kits.items} defaultValue={chat?.brandKitId ?? kits.items[0]?.id} />
            </MessageForm>
          )}
        </Card>
      </div>
    </>
  );
}
