import { maxActiveKeys, maxWebhooks, webhookEventTypes } from '@svc/contracts';
import { listApiKeys, listWebhookDeliveries, listWebhooks } from '@svc/core';
import { requireSession } from '../../../src/dashboard/session.ts';
import { ActionForm } from '../../../src/dashboard/ui/action-form.tsx';
import { Badge } from '../../../src/dashboard/ui/badge.tsx';
import { Card, CardHeader, PageHeader } from '../../../src/dashboard/ui/card.tsx';
import { Field, Input } from '../../../src/dashboard/ui/field.tsx';
import { LocalDate } from '../../../src/dashboard/ui/local-format.tsx';
import { EmptyState } from '../../../src/dashboard/ui/states.tsx';
import { Table, Td, Th } from '../../../src/dashboard/ui/table.tsx';
import {
  createDestination,
  createKey,
  deleteDestination,
  revokeKey,
  rotateDestinationSecret,
  sendTestEvent,
  setDestinationEnabled,
  updateKey,
} from './actions.ts';
import { NewKeyProvider, QuickStart } from './quick-start.tsx';
import { SecretForm } from './secret-form.tsx';
import { TestWebhookForm } from './test-webhook-form.tsx';

export const metadata = { title: 'Developers' };

export default async function Developers() {
  const { ctx, accountId, csrfToken } = await requireSession();
  const [keys, webhooks] = await Promise.all([listApiKeys(ctx, { accountId, limit: 100 }), listWebhooks(ctx, { accountId })]);
  const deliveries = await Promise.all(webhooks.map((webhook) => listWebhookDeliveries(ctx, { accountId, webhookId: webhook.id })));
  const active = keys.items.filter((key) => key.status === 'active');
  const newestPrefix = active[0]?.displayPrefix ?? null;
  return (
    <>
      <PageHeader title="Developers" description="API keys, webhook destinations and a quick start." />
      <NewKeyProvider>
        <div className="grid gap-6">
          <QuickStart base={ctx.config.publicUrl} newestPrefix={newestPrefix} />

          <Card aria-labelledby="keys-heading">
            <CardHeader id="keys-heading" title="API keys" description={`${active.length} of ${maxActiveKeys} active keys. A key's secret is shown once, when it is created.`} />
            <SecretForm action={createKey} csrfToken={csrfToken} submitLabel="Create key" secretName="API key" className="mb-6" isApiKey>
              <Field id="new-key-name" label="Name of the new key" hint="For telling keys apart, e.g. production or staging.">
                <Input id="new-key-name" name="name" required maxLength={100} aria-describedby="new-key-name-hint" className="max-w-sm" />
              </Field>
            </SecretForm>
            {keys.items.length === 0 ? (
              <EmptyState title="No API keys">Create one to call the API.</EmptyState>
            ) : (
              <ul className="divide-y divide-slate-200" aria-label="API keys">
                {keys.items.map((key) => (
                  <li key={key.id} className="py-4" data-testid="api-key">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{key.name}</span>
                      <span className="font-mono text-xs text-slate-600">{key.displayPrefix}…</span>
                      <Badge tone={key.status === 'active' ? 'success' : 'neutral'}>{key.status}</Badge>
                    </div>
                    <p className="mt-1 text-xs text-slate-600">
                      Created <LocalDate value={key.createdAt} /> · {key.lastUsedAt ? <>last used <LocalDate value={key.lastUsedAt} /></> : 'never used'}
                      {key.revokedAt ? (
                        <>
                          {' '}
                          · revoked <LocalDate value={key.revokedAt} />
                        </>
                      ) : null}
                    </p>
                    {key.status === 'active' ? (
                      <div className="mt-3 flex flex-wrap items-end gap-4">
                        <ActionForm action={updateKey} csrfToken={csrfToken} submitLabel="Save" submitVariant="secondary" successMessage="Saved." inline className="flex flex-wrap items-end gap-3">
                          <input type="hidden" name="key_id" value={key.id} />
                          <Field id={`name-${key.id}`} label="Name">
                            <Input id={`name-${key.id}`} name="name" defaultValue={key.name} required maxLength={100} />
                          </Field>
                          <Field id={`cap-${key.id}`} label="Monthly overage cap">
                            <Input id={`cap-${key.id}`} name="monthly_overage_cap" type="number" min={1} step={1} defaultValue={key.monthlyOverageCap ?? ''} placeholder="No cap" className="w-32" />
                          </Field>
                        </ActionForm>
                        <ActionForm
                          action={revokeKey}
                          csrfToken={csrfToken}
                          submitLabel="Revoke"
                          submitVariant="danger"
                          inline
                          confirm={{ title: `Revoke ${key.name}?`, body: 'Requests with this key are refused from now on. This cannot be undone.', confirmLabel: 'Revoke key' }}
                        >
                          <input type="hidden" name="key_id" value={key.id} />
                        </ActionForm>
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card aria-labelledby="webhooks-heading">
            <CardHeader
              id="webhooks-heading"
              title="Webhooks"
              description={`${webhooks.length} of ${maxWebhooks} destinations. Each event is signed with the destination's secret (Svc-Signature header).`}
            />
            <SecretForm action={createDestination} csrfToken={csrfToken} submitLabel="Add destination" secretName="signing secret" className="mb-6">
              <div className="grid gap-3">
                <Field id="webhook-url" label="Endpoint URL" hint="https, port 443, a public host.">
                  <Input id="webhook-url" name="url" type="url" required placeholder="https://example.com/hooks/renders" aria-describedby="webhook-url-hint" className="max-w-lg" />
                </Field>
                <fieldset>
                  <legend className="text-sm font-medium text-slate-800">Events</legend>
                  <div className="mt-1 flex flex-wrap gap-4">
                    {webhookEventTypes.map((event) => (
                      <label key={event} className="inline-flex items-center gap-2 text-sm">
                        <input type="checkbox" name="events[]" value={event} defaultChecked className="size-4 accent-indigo-600" />
                        <span className="font-mono text-xs">{event}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              </div>
            </SecretForm>
            {webhooks.length === 0 ? (
              <EmptyState title="No webhook destinations">Add one to hear about finished, failed and cancelled renders.</EmptyState>
            ) : (
              <ul className="divide-y divide-slate-200" aria-label="Webhook destinations">
                {webhooks.map((webhook, index) => (
                  <li key={webhook.id} className="py-4" data-testid="webhook">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-mono text-sm break-all">{webhook.url}</span>
                      <Badge tone={webhook.status === 'enabled' ? 'success' : 'warning'}>
                        {webhook.status === 'enabled' ? 'enabled' : webhook.disabledReason === 'delivery_failure' ? 'disabled after failures' : 'disabled'}
                      </Badge>
                    </div>
                    <p className="mt-1 text-xs text-slate-600">
                      Events: {webhook.events.join(', ')} · secret {webhook.displayPrefix}… · created <LocalDate value={webhook.createdAt} />
                    </p>
                    <div className="mt-3 flex flex-wrap items-start gap-3">
                      <TestWebhookForm action={sendTestEvent} csrfToken={csrfToken} webhookId={webhook.id} />
                      <ActionForm action={setDestinationEnabled} csrfToken={csrfToken} submitLabel={webhook.status === 'enabled' ? 'Disable' : 'Enable'} submitVariant="secondary" inline>
                        <input type="hidden" name="webhook_id" value={webhook.id} />
                        <input type="hidden" name="enabled" value={webhook.status === 'enabled' ? 'false' : 'true'} />
                      </ActionForm>
                      <SecretForm
                        action={rotateDestinationSecret}
                        csrfToken={csrfToken}
                        submitLabel="Rotate secret"
                        submitVariant="secondary"
                        inline
                        secretName="signing secret"
                        confirm={{ title: 'Rotate the signing secret?', body: 'A new secret signs events from now on; the old one keeps signing for 24 hours alongside it.', confirmLabel: 'Rotate' }}
                      >
                        <input type="hidden" name="webhook_id" value={webhook.id} />
                      </SecretForm>
                      <ActionForm
                        action={deleteDestination}
                        csrfToken={csrfToken}
                        submitLabel="Delete"
                        submitVariant="danger"
                        inline
                        confirm={{ title: 'Delete this destination?', body: 'No more events are sent to it. This cannot be undone.', confirmLabel: 'Delete destination' }}
                      >
                        <input type="hidden" name="webhook_id" value={webhook.id} />
                      </ActionForm>
                    </div>
                    <details className="mt-3">
                      <summary className="cursor-pointer text-sm text-slate-700">Delivery log ({deliveries[index]?.length ?? 0})</summary>
                      {(deliveries[index] ?? []).length === 0 ? (
                        <p className="mt-2 text-sm text-slate-600">No deliveries in the last 30 days.</p>
                      ) : (
                        <Table caption={`Deliveries to ${webhook.url}`}>
                          <thead>
                            <tr>
                              <Th>When</Th>
                              <Th>Event</Th>
                              <Th>Answer</Th>
                            </tr>
                          </thead>
                          <tbody className="divide-y divide-slate-100" data-testid="delivery-log">
                            {(deliveries[index] ?? []).map((attempt) => (
                              <tr key={attempt.id}>
                                <Td>
                                  <LocalDate value={attempt.createdAt} />
                                </Td>
                                <Td>
                                  <span className="font-mono text-xs">{attempt.eventType}</span>
                                  {attempt.isTest ? <Badge className="ml-2">test</Badge> : null}
                                </Td>
                                <Td>
                                  {attempt.finishedAt === null ? (
                                    <Badge tone="info">in flight</Badge>
                                  ) : attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300 ? (
                                    <Badge tone="success">{attempt.statusCode}</Badge>
                                  ) : (
                                    <Badge tone="danger">{attempt.statusCode ?? attempt.failure ?? 'failed'}</Badge>
                                  )}
                                </Td>
                              </tr>
                            ))}
                          </tbody>
                        </Table>
                      )}
                    </details>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </NewKeyProvider>
    </>
  );
}
