import { type BrandKitWithHistory, getTemplateVersion, listWebhookDeliveries, type TemplateRecord, type TemplateWithContent, type WebhookRecord } from '@svc/core';
import { brandAssetBody, brandKitDetailBody } from '../../http/views/brand-kits.ts';
import { templateSummaryBody, templateVersionBody } from '../../http/views/templates.ts';
import { deliveryBody, webhookBody } from '../../http/views/webhooks.ts';
import { builder } from '../builder.ts';
import { BrandAssetKindEnum, BrandAssetMediaTypeEnum, WebhookDisabledReasonEnum, WebhookEventEnum, WebhookStatusEnum } from './enums.ts';

/** A timestamp REST's views answer as ISO text, for the DateTime scalar. */
const dateOf = (iso: string) => new Date(iso);
const dateOrNull = (iso: string | null) => (iso === null ? null : new Date(iso));

const ArchiveEvent = builder.objectRef<{ archived_at: string; restored_at: string | null }>('ArchiveEvent').implement({
  fields: (t) => ({
    archivedAt: t.field({ type: 'DateTime', resolve: (event) => dateOf(event.archived_at) }),
    restoredAt: t.field({ type: 'DateTime', nullable: true, resolve: (event) => dateOrNull(event.restored_at) }),
  }),
});

export interface TemplateVersionRow {
  template: TemplateRecord;
  version: number;
  createdAt: Date;
}

const TemplateVersion = builder.objectRef<TemplateVersionRow>('TemplateVersion').implement({
  fields: (t) => ({
    version: t.exposeInt('version'),
    createdAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    source: t.string({
      description: 'CUSTOMER CONTENT: the version\'s template source exactly as saved (as GET /v1/templates/{id}/versions/{version} answers it). Select it only when the work needs it.',
      complexity: 20,
      resolve: async (row, _args, { ctx }) => templateVersionBody(await versionOf(ctx, row)).source,
    }),
    schema: t.field({
      type: 'JSON',
      nullable: true,
      description: 'CUSTOMER CONTENT: the JSON schema for data, or null.',
      complexity: 20,
      resolve: async (row, _args, { ctx }) => templateVersionBody(await versionOf(ctx, row)).schema,
    }),
    sizes: t.field({
      type: 'JSON',
      description: 'CUSTOMER CONTENT: the saved sizes (SizeVariant list, as REST answers it).',
      complexity: 20,
      resolve: async (row, _args, { ctx }) => templateVersionBody(await versionOf(ctx, row)).sizes,
    }),
  }),
});

function versionOf(ctx: Parameters<typeof getTemplateVersion>[0], row: TemplateVersionRow) {
  return getTemplateVersion(ctx, { accountId: row.template.accountId, templateId: row.template.id, version: String(row.version) });
}

export interface TemplateNode extends TemplateWithContent {
  versions: { version: number; createdAt: Date }[];
}

export const Template = builder.objectRef<TemplateNode>('Template').implement({
  description: 'A saved template; the summary fields have the values of GET /v1/templates/{id}. Sources are read per version, on request.',
  fields: (t) => ({
    id: t.id({ resolve: (node) => node.template.id }),
    accountId: t.id({ resolve: (node) => node.template.accountId }),
    name: t.string({ nullable: true, description: 'CUSTOMER CONTENT: the name the customer gave.', resolve: (node) => templateSummaryBody(node.template).name }),
    tags: t.stringList({ description: 'CUSTOMER CONTENT: the tags the customer gave.', resolve: (node) => templateSummaryBody(node.template).tags }),
    createdAt: t.field({ type: 'DateTime', resolve: (node) => node.template.createdAt }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, resolve: (node) => node.template.archivedAt }),
    latestVersion: t.int({ resolve: (node) => node.template.latestVersion }),
    archiveHistory: t.field({
      type: [ArchiveEvent],
      resolve: (node) => node.archives.map((event) => ({ archived_at: event.archivedAt.toISOString(), restored_at: event.restoredAt?.toISOString() ?? null })),
    }),
    versions: t.field({
      type: [TemplateVersion],
      description: 'The newest versions, newest first (at most 100).',
      complexity: { field: 1, multiplier: 100 },
      resolve: (node) => node.versions.map((version) => ({ template: node.template, ...version })),
    }),
  }),
});

const BrandAsset = builder.objectRef<ReturnType<typeof brandAssetBody>>('BrandAsset').implement({
  description: 'A current logo or font of a kit (metadata only).',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: BrandAssetKindEnum, resolve: (asset) => asset.kind }),
    mediaType: t.field({ type: BrandAssetMediaTypeEnum, resolve: (asset) => asset.media_type }),
    byteSize: t.exposeInt('byte_size'),
    createdAt: t.field({ type: 'DateTime', resolve: (asset) => dateOf(asset.created_at) }),
  }),
});

export const BrandKit = builder.objectRef<BrandKitWithHistory>('BrandKit').implement({
  description: 'A brand kit with the values of GET /v1/brand-kits/{id}.',
  fields: (t) => ({
    id: t.id({ resolve: (kit) => kit.kit.id }),
    accountId: t.id({ resolve: (kit) => kit.kit.accountId }),
    name: t.string({ description: 'CUSTOMER CONTENT.', resolve: (kit) => brandKitDetailBody(kit).name }),
    colours: t.stringList({ resolve: (kit) => brandKitDetailBody(kit).colours }),
    toneGuidance: t.string({ nullable: true, description: 'CUSTOMER CONTENT.', resolve: (kit) => brandKitDetailBody(kit).tone_guidance }),
    createdAt: t.field({ type: 'DateTime', resolve: (kit) => kit.kit.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (kit) => kit.kit.updatedAt }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, resolve: (kit) => kit.kit.archivedAt }),
    assets: t.field({ type: [BrandAsset], complexity: { field: 1, multiplier: 16 }, resolve: (kit) => brandKitDetailBody(kit).assets }),
    archiveHistory: t.field({ type: [ArchiveEvent], resolve: (kit) => brandKitDetailBody(kit).archive_history }),
  }),
});

const WebhookDelivery = builder.objectRef<ReturnType<typeof deliveryBody>>('WebhookDelivery').implement({
  description: 'One attempt of the delivery log (GET /v1/webhooks/{id}/deliveries); never a body.',
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.field({ type: WebhookEventEnum, resolve: (delivery) => delivery.event }),
    createdAt: t.field({ type: 'DateTime', resolve: (delivery) => dateOf(delivery.created_at) }),
    statusCode: t.exposeInt('status_code', { nullable: true, description: 'null while in flight or when no answer came.' }),
    isTest: t.exposeBoolean('is_test'),
    retryCount: t.exposeInt('retry_count'),
  }),
});

export const Webhook = builder.objectRef<WebhookRecord>('Webhook').implement({
  description: 'A webhook destination with the values of GET /v1/webhooks/{id}; the signing secret is never shown.',
  fields: (t) => ({
    id: t.exposeID('id'),
    accountId: t.exposeID('accountId'),
    url: t.string({ description: 'CUSTOMER CONTENT: the destination URL.', resolve: (hook, _args, { ctx }) => webhookBody(hook, ctx.clock()).url }),
    events: t.field({ type: [WebhookEventEnum], resolve: (hook, _args, { ctx }) => webhookBody(hook, ctx.clock()).events }),
    status: t.field({ type: WebhookStatusEnum, resolve: (hook, _args, { ctx }) => webhookBody(hook, ctx.clock()).status }),
    disabledReason: t.field({ type: WebhookDisabledReasonEnum, nullable: true, resolve: (hook, _args, { ctx }) => webhookBody(hook, ctx.clock()).disabled_reason }),
    displayPrefix: t.string({ resolve: (hook, _args, { ctx }) => webhookBody(hook, ctx.clock()).display_prefix }),
    lastDeliveryAt: t.field({ type: 'DateTime', nullable: true, resolve: (hook) => hook.lastDeliveryAt }),
    failureCount: t.int({ resolve: (hook, _args, { ctx }) => webhookBody(hook, ctx.clock()).failure_count }),
    createdAt: t.field({ type: 'DateTime', resolve: (hook) => hook.createdAt }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'While a rotated secret still signs: when it stops.',
      resolve: (hook, _args, { ctx }) => dateOrNull(webhookBody(hook, ctx.clock()).previous_secret_expires_at),
    }),
    deliveries: t.field({
      type: [WebhookDelivery],
      description: 'The delivery log: the 20 newest attempts of the last 30 days, tests included.',
      complexity: { field: 5, multiplier: 20 },
      resolve: async (hook, _args, { ctx }) => (await listWebhookDeliveries(ctx, { accountId: hook.accountId, webhookId: hook.id })).map(deliveryBody),
    }),
  }),
});
