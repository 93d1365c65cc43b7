import {
  getBrandKit,
  getRender,
  getServiceStatus,
  getTemplate,
  getWebhook,
  listOperatorActions,
  listPendingTestimonials,
  listTemplateVersions,
  ownerOf,
  searchAccounts,
  searchRenderJobs,
} from '@svc/core';
import { renderKindOf } from '@svc/contracts';
import { z } from 'zod';
import { builder } from '../builder.ts';
import { connectionOf, connectionType, pageArgs, pageComplexity } from '../connection.ts';
import { Account } from './account.ts';
import { BrandKit, Template, Webhook } from './content.ts';
import { AccountStatusEnum, JobErrorCategoryEnum, JobStatusEnum, PlanEnum, RenderKindEnum } from './enums.ts';
import { RenderJob } from './render-job.ts';
import { AuditEntry, ServiceStatus, Testimonial } from './status.ts';

const AccountConnection = connectionType('Account', Account);
const RenderJobConnection = connectionType('RenderJob', RenderJob);
const TestimonialConnection = connectionType('Testimonial', Testimonial);
const AuditEntryConnection = connectionType('AuditEntry', AuditEntry);

const RenderJobFilter = builder.inputType('RenderJobFilter', {
  fields: (t) => ({
    accountId: t.id({ required: false }),
    status: t.field({ type: JobStatusEnum, required: false }),
    errorCategory: t.field({ type: JobErrorCategoryEnum, required: false }),
    kind: t.field({ type: RenderKindEnum, required: false }),
    createdFrom: t.field({ type: 'DateTime', required: false, description: 'Created at or after.' }),
    createdBefore: t.field({ type: 'DateTime', required: false, description: 'Created before.' }),
  }),
});

builder.queryFields((t) => ({
  account: t.field({
    type: Account,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { loaders }) => loaders.account.load(String(id)),
  }),
  accounts: t.field({
    type: AccountConnection,
    description: 'Accounts, newest first.',
    args: {
      search: t.arg.string({
        required: false,
        description: 'An account id, an email address, a whole API key, or the start of one as display_prefix shows it (svc_sk_v1_ and up to four hex characters).',
        validate: z.string().max(320),
      }),
      plan: t.arg({ type: PlanEnum, required: false }),
      status: t.arg({ type: AccountStatusEnum, required: false }),
      ...pageArgs(t),
    },
    complexity: pageComplexity,
    resolve: async (_root, args, { ctx, loaders }) => {
      const page = await searchAccounts(ctx, {
        search: args.search ?? undefined,
        plan: args.plan ?? undefined,
        status: args.status ?? undefined,
        limit: args.first,
        cursor: args.after ?? undefined,
      });
      return connectionOf(page, async (items) => (await loaders.account.loadMany(items.map((item) => item.id))).map(orThrow));
    },
  }),
  renderJob: t.field({
    type: RenderJob,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx }) => {
      const jobId = String(id);
      const kind = renderKindOf(jobId);
      const accountId = kind && (await ownerOf(ctx, 'render_job', jobId));
      return kind && accountId ? getRender(ctx, { accountId, kind, jobId }) : null;
    },
  }),
  renderJobs: t.field({
    type: RenderJobConnection,
    description: 'Render jobs of every account, newest first; jobs customers removed from history are included.',
    args: { filter: t.arg({ type: RenderJobFilter, required: false }), ...pageArgs(t) },
    complexity: pageComplexity,
    resolve: async (_root, { filter, first, after }, { ctx }) => {
      const page = await searchRenderJobs(ctx, {
        accountId: filter?.accountId ? String(filter.accountId) : undefined,
        status: filter?.status ?? undefined,
        errorCategory: filter?.errorCategory ?? undefined,
        kind: filter?.kind ?? undefined,
        createdFrom: filter?.createdFrom ?? undefined,
        createdBefore: filter?.createdBefore ?? undefined,
        limit: first,
        cursor: after ?? undefined,
      });
      return connectionOf(page, (items) => items);
    },
  }),
  template: t.field({
    type: Template,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx }) => {
      const templateId = String(id);
      const accountId = await ownerOf(ctx, 'template', templateId);
      if (!accountId) return null;
      const [content, versions] = await Promise.all([
        getTemplate(ctx, { accountId, templateId }),
        listTemplateVersions(ctx, { accountId, templateId, limit: 100 }),
      ]);
      return { ...content, versions: versions.items };
    },
  }),
  brandKit: t.field({
    type: BrandKit,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx }) => {
      const accountId = await ownerOf(ctx, 'brand_kit', String(id));
      return accountId ? getBrandKit(ctx, { accountId, brandKitId: String(id) }) : null;
    },
  }),
  webhook: t.field({
    type: Webhook,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx }) => {
      const accountId = await ownerOf(ctx, 'webhook', String(id));
      return accountId ? getWebhook(ctx, { accountId, webhookId: String(id) }) : null;
    },
  }),
  testimonials: t.field({
    type: TestimonialConnection,
    description: 'Testimonials pending review, newest first.',
    args: pageArgs(t),
    complexity: pageComplexity,
    resolve: async (_root, { first, after }, { ctx }) => connectionOf(await listPendingTestimonials(ctx, { limit: first, cursor: after ?? undefined }), (items) => items),
  }),
  auditLog: t.field({
    type: AuditEntryConnection,
    description: 'Operator actions, newest first; targetId narrows to one object.',
    args: { targetId: t.arg.id({ required: false }), ...pageArgs(t) },
    complexity: pageComplexity,
    resolve: async (_root, { targetId, first, after }, { ctx }) =>
      connectionOf(await listOperatorActions(ctx, { targetId: targetId ? String(targetId) : undefined, limit: first, cursor: after ?? undefined }), (items) => items),
  }),
  serviceStatus: t.field({ type: ServiceStatus, resolve: (_root, _args, { ctx }) => getServiceStatus(ctx) }),
}));

function orThrow<T>(value: T | Error | null): T {
  if (value instanceof Error) throw value;
  if (value === null) throw new Error('an account listed a moment ago is gone');
  return value;
}
