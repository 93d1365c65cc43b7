import type { Batch } from '@svc/contracts';
import { type GroupMemberView, loadRenderGroup, type RenderGroupView } from '@svc/core';
import { builder } from '../builder.ts';
import { GroupKindEnum, GroupMemberStateEnum, GroupStateEnum, RenderFormatEnum } from './enums.ts';
import { RenderJob } from './render-job.ts';

const GroupMember = builder.objectRef<GroupMemberView>('GroupMember').implement({
  description: 'A batch row, carousel page or image pack size, with the state REST shows for it.',
  fields: (t) => ({
    position: t.exposeInt('position'),
    pageOrSizeId: t.exposeString('label', { nullable: true, description: 'The carousel page id or the image pack size (original, a saved size id, a preset slug or WxH); null for batch rows.' }),
    name: t.exposeString('name', { nullable: true, description: 'CUSTOMER CONTENT: the page name (data-svc-page-name) or saved size name.' }),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    state: t.field({ type: GroupMemberStateEnum, resolve: (member) => member.state }),
    errorCode: t.exposeString('errorCode', { nullable: true, description: 'Why the member failed: its job’s error code, or why it ended without a job.' }),
    job: t.field({ type: RenderJob, nullable: true, description: 'The current attempt; null while pending or when the member ended without a job.', resolve: (member) => member.job }),
  }),
});

const RenderGroup = builder.objectRef<RenderGroupView>('RenderGroup').implement({
  description: 'A batch, carousel or image pack; the state and members have the values of GET /v1/batches/{id}, /v1/carousels/{id} or /v1/image-packs/{id}.',
  fields: (t) => ({
    id: t.id({ resolve: (view) => view.group.id }),
    kind: t.field({ type: GroupKindEnum, resolve: (view) => view.group.kind }),
    accountId: t.id({ resolve: (view) => view.group.accountId }),
    keyId: t.id({ nullable: true, resolve: (view) => view.group.keyId }),
    templateId: t.id({ resolve: (view) => view.group.templateId }),
    version: t.int({ resolve: (view) => view.group.templateVersion }),
    format: t.field({ type: RenderFormatEnum, resolve: (view) => view.group.format as Batch['format'] }),
    state: t.field({ type: GroupStateEnum, resolve: (view) => view.state }),
    createdAt: t.field({ type: 'DateTime', resolve: (view) => view.group.createdAt }),
    cancelledAt: t.field({ type: 'DateTime', nullable: true, resolve: (view) => view.group.cancelledAt }),
    members: t.field({
      type: [GroupMember],
      description: 'Members in requested order (at most 200).',
      complexity: { field: 1, multiplier: 200 },
      resolve: (view) => view.members,
    }),
  }),
});

builder.queryFields((t) => ({
  group: t.field({
    type: RenderGroup,
    nullable: true,
    description: 'A batch (batch_), carousel (carousel_) or image pack (pack_) by id, of any account.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { ctx }) => loadRenderGroup(ctx.db, String(id)),
  }),
}));
