import { createHmac, timingSafeEqual } from 'node:crypto';
import { archiveTokenPattern } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { signingSecret } from '../settings/signing-secret.ts';
import { groupKinds } from './group-kinds.ts';
import type { RenderGroupView } from './get-render-group.ts';

/**
 * A signed archive link token: "<group id>.<expiry, unix seconds>.<signature>", the signature an
 * HMAC-SHA256 of "archive." and the first two parts, so it can never pass as a download token.
 */
export function signArchiveToken(secret: string, groupId: string, expiresAt: Date): string {
  const body = `${groupId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${signature(secret, body)}`;
}

export type ArchiveTokenCheck = { valid: false } | { valid: true; groupId: string; expiresAt: Date };

export function readArchiveToken(secret: string, token: string): ArchiveTokenCheck {
  const match = archiveTokenPattern.exec(token);
  if (!match) return { valid: false };
  const [, groupId, expiry, given] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(signature(secret, `${groupId}.${expiry}`));
  if (!timingSafeEqual(expected, Buffer.from(given))) return { valid: false };
  return { valid: true, groupId, expiresAt: new Date(Number(expiry) * 1000) };
}

function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(`archive.${body}`).digest('base64url');
}

/**
 * The archive link of a group, minted now, once any member succeeded with its file still
 * available; null otherwise. It lives SVC_DOWNLOAD_LINK_MINUTES.
 */
export async function mintArchiveLink(ctx: ServiceContext, view: RenderGroupView): Promise<string | null> {
  const now = ctx.clock();
  const available = view.members.some(({ job }) => job?.status === 'succeeded' && job.removedReason === null && job.expiresAt !== null && job.expiresAt > now);
  if (!available) return null;
  const token = signArchiveToken(await signingSecret(ctx), view.group.id, new Date(now.getTime() + ctx.config.downloadLinkMs));
  return `${ctx.config.publicUrl}/v1/${groupKinds[view.group.kind].path}/archive/${token}`;
}
