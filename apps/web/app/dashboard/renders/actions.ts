'use server';
// The Renders pages' writes: delete a render, retry a group, cancel a batch, each through its core use-case.
import { renderIdPattern } from '@svc/contracts';
import { cancelBatch, deleteRender, groupIdPattern, notFound, retryRenderGroup } from '@svc/core';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { sessionAction } from '../../../src/dashboard/actions.ts';
import { groupKindOf, groupsPath, renderKindOf, rendersPath } from './ids.ts';

const RenderId = z.string().regex(renderIdPattern, 'Not a render id');
const GroupId = z.string().regex(groupIdPattern, 'Not a batch, carousel or image pack id');

export const removeRender = sessionAction(z.object({ render_id: RenderId }), async ({ render_id }, { ctx, accountId }) => {
  const kind = renderKindOf(render_id);
  if (!kind) throw notFound();
  await deleteRender(ctx, { accountId, kind, jobId: render_id });
  revalidatePath(rendersPath);
  return null;
});

export const retryGroup = sessionAction(z.object({ group_id: GroupId }), async ({ group_id }, { ctx, principal }) => {
  const kind = groupKindOf(group_id);
  if (!kind) throw notFound();
  await retryRenderGroup(ctx, { principal, kind, groupId: group_id });
  revalidatePath(`${groupsPath}/${group_id}`);
  return null;
});

export const cancelGroup = sessionAction(z.object({ group_id: GroupId }), async ({ group_id }, { ctx, accountId }) => {
  if (groupKindOf(group_id) !== 'batch') throw notFound();
  await cancelBatch(ctx, { accountId, batchId: group_id });
  revalidatePath(`${groupsPath}/${group_id}`);
  return null;
});
