import { randomUUID } from 'node:crypto';
import { DomainError, getBrandKit, getTemplateBuild, listBuildMessages, pendingStates, typicalMessageSeconds } from '@svc/core';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireSession } from '../../../../../src/dashboard/session.ts';
import { ActionForm } from '../../../../../src/dashboard/ui/action-form.tsx';
import { Card, CardHeader, PageHeader } from '../../../../../src/dashboard/ui/card.tsx';
import { Notice } from '../../../../../src/dashboard/ui/states.tsx';
import { cancelMessage, sendBuildMessage } from '../../actions.ts';
import { MessageForm } from '../../message-form.tsx';
import { MessageList, type Preview, previewOf } from '../../message-list.tsx';
import { pricesOf } from '../../prices.ts';
import { ProviderNotice } from '../../provider-notice.tsx';
import { PublishForm } from './publish-form.tsx';

export const metadata = { title: 'AI build' };

export default async function Build({ params }: { params: Promise<{ build_id: string }> }) {
  const { ctx, accountId, csrfToken } = await requireSession();
  const { build_id } = await params;
  const { build } = await getTemplateBuild(ctx, { accountId, buildId: build_id }).catch((error: unknown) => {
    if (error instanceof DomainError && error.code === 'template_build_not_found') notFound();
    throw error;
  });
  const messages = await listBuildMessages(ctx, { accountId, buildId: build.id });
  const [kit, typicalSeconds] = await Promise.all([getBrandKit(ctx, { accountId, brandKitId: build.brandKitId }).catch(() => null), typicalMessageSeconds(ctx)]);
  const previews = new Map<string, Preview>();
  await Promise.all(
    messages.map(async (message) => {
      const preview = message.state === 'succeeded' ? await previewOf(ctx, accountId, message.previewId) : null;
      if (preview) previews.set(message.id, preview);
    }),
  );
  const busy = messages.some((message) => (pendingStates as readonly string[]).includes(message.state));
  const providerAvailable = ctx.aiProvider !== null;
  const published = build.publishedMessageId !== null && build.publishedMessageId === build.draftMessageId;
  return (
    <>
      <PageHeader
        title="AI build"
        description={
          <>
            <Link href="/dashboard/ai" className="text-indigo-700 underline">
              AI
            </Link>{' '}
            · <span className="font-mono">{build.id}</span> · brand kit {kit ? kit.kit.name : build.brandKitId}
          </>
        }
      />
      {providerAvailable ? null : <ProviderNotice />}
      <div className="grid gap-6">
        <Card aria-labelledby="messages-heading">
          <CardHeader id="messages-heading" title="Messages" description="Each message makes a new draft from the current one. The newest succeeded message's draft is the build's draft." />
          <MessageList
            messages={messages}
            previews={previews}
            csrfToken={csrfToken}
            now={ctx.clock()}
            typicalSeconds={typicalSeconds}
            actionsFor={(message) =>
              (pendingStates as readonly string[]).includes(message.state) ? (
                <ActionForm action={cancelMessage} csrfToken={csrfToken} submitLabel="Cancel" submitVariant="secondary" inline>
                  <input type="hidden" name="message_id" value={message.id} />
                  <input type="hidden" name="build_id" value={build.id} />
                </ActionForm>
              ) : null
            }
          />
        </Card>

        {build.draft !== null ? (
          <Card aria-labelledby="draft-heading">
            <CardHeader
              id="draft-heading"
              title="The draft"
              description={
                build.publishedTemplateId
                  ? 'Applying saves the current draft as the next version of the template it was published as.'
                  : 'Applying saves the current draft as a new saved template (version 1). Sending another message replaces the draft; the old one is not kept.'
              }
            />
            {published && build.publishedTemplateId ? (
              <Notice>
                This draft is version {build.publishedVersion} of <span className="font-mono">{build.publishedTemplateId}</span>.
              </Notice>
            ) : (
              <PublishForm buildId={build.id} csrfToken={csrfToken} />
            )}
          </Card>
        ) : null}

        <Card aria-labelledby="edit-heading">
          <CardHeader id="edit-heading" title="Send a message" description={busy ? 'A message is running; send the next when it ends.' : 'Ask for a change to the draft, or start it over from an image or a source.'} />
          <MessageForm
            action={sendBuildMessage}
            csrfToken={csrfToken}
            hidden={{ build_id: build.id, idempotency_key: randomUUID() }}
            prices={pricesOf(build.draft !== null)}
            submitLabel="Send"
            providerAvailable={providerAvailable}
            keepOutput={build.draft !== null}
            idPrefix="edit"
          />
        </Card>
      </div>
    </>
  );
}
