import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { downloadLinkTokens, readLinkToken } from '../shared/link-token.ts';
import { openKeptFile, type OpenedRenderFile } from '../renders/open-render-file.ts';
import { signingSecret } from '../settings/signing-secret.ts';

/**
 * Serves a signed download link. A forged or unknown token, or a file that is gone,
 * answers 404; a genuine link past its expiry answers 403 download_expired.
 */
export async function openDownload(ctx: ServiceContext, token: string): Promise<OpenedRenderFile> {
  const check = readLinkToken(downloadLinkTokens, await signingSecret(ctx), token);
  if (!check.valid) throw notFound();
  if (check.expiresAt <= ctx.clock()) throw new DomainError('download_expired');
  return openKeptFile(ctx, await ctx.db.renderJob.findUnique({ where: { id: check.id } }));
}
