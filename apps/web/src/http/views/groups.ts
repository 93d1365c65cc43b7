import type { Batch, Carousel, ImagePack } from '@svc/contracts';
import { type GroupMemberView, mintArchiveLink, mintDownloadLink, type RenderGroupView, type ServiceContext } from '@svc/core';

async function memberFields(ctx: ServiceContext, member: GroupMemberView) {
  const link = member.job ? await mintDownloadLink(ctx, member.job) : null;
  return {
    position: member.position,
    state: member.state,
    error: member.state === 'failed' && member.errorCode ? { code: member.errorCode } : null,
    download_url: link?.url ?? null,
  };
}

async function groupFields(ctx: ServiceContext, view: RenderGroupView) {
  const { group } = view;
  return {
    id: group.id,
    template_id: group.templateId,
    version: group.templateVersion,
    created_at: group.createdAt.toISOString(),
    state: view.state,
    archive_url: await mintArchiveLink(ctx, view),
  };
}

/** A batch (the contract's groups): rows in order with fresh signed links. */
export async function batchBody(ctx: ServiceContext, view: RenderGroupView): Promise<Batch> {
  return {
    ...(await groupFields(ctx, view)),
    format: view.group.format as Batch['format'],
    quoted_credits: view.members.length,
    rows: await Promise.all(view.members.map((member) => memberFields(ctx, member))),
  };
}

const imageMember = async (ctx: ServiceContext, member: GroupMemberView) => ({
  ...(await memberFields(ctx, member)),
  state: member.state as 'queued',
  name: member.name ?? '',
  width: member.width ?? 1,
  height: member.height ?? 1,
});

export async function carouselBody(ctx: ServiceContext, view: RenderGroupView): Promise<Carousel> {
  return {
    ...(await groupFields(ctx, view)),
    state: view.state as Carousel['state'],
    format: view.group.format as Carousel['format'],
    members: await Promise.all(view.members.map(async (member) => ({ ...(await imageMember(ctx, member)), page_id: member.label ?? '' }))),
  };
}

export async function imagePackBody(ctx: ServiceContext, view: RenderGroupView): Promise<ImagePack> {
  return {
    ...(await groupFields(ctx, view)),
    state: view.state as ImagePack['state'],
    format: view.group.format as ImagePack['format'],
    members: await Promise.all(view.members.map(async (member) => ({ ...(await imageMember(ctx, member)), size_id: member.label ?? '' }))),
  };
}
