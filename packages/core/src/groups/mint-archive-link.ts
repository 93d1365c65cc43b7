import type { ServiceContext } from '../shared/context.ts';
import { archiveLinkTokens, signLinkToken } from '../shared/link-token.ts';
import { signingSecret } from '../settings/signing-secret.ts';
import { groupKinds } from './group-kinds.ts';
import type { RenderGroupView } from './get-render-group.ts';

/**
 * The archive link of a group, minted now, once any member succeeded with its file still
 * available; null otherwise. It lives SVC_DOWNLOAD_LINK_MINUTES.
 */
export async function mintArchiveLink(ctx: ServiceContext, view: RenderGroupView): Promise<string | null> {
  const now = ctx.clock();
  const available = view.members.some(({ job }) => job?.status === 'succeeded' && job.removedReason === null && job.expiresAt !== null && job.expiresAt > now);
  if (!available) return null;
  const token = signLinkToken(archiveLinkTokens, await signingSecret(ctx), view.group.id, new Date(now.getTime() + ctx.config.downloadLinkMs));
  return `${ctx.config.publicUrl}/v1/${groupKinds[view.group.kind].path}/archive/${token}`;
}
