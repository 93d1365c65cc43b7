import type { Readable } from 'node:stream';
import type { GroupKind } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { archiveLinkTokens, readLinkToken } from '../shared/link-token.ts';
import { extensionOf } from '../renders/filename.ts';
import { signingSecret } from '../settings/signing-secret.ts';
import { type GroupMemberView, loadRenderGroup, type RenderGroupView } from './get-render-group.ts';

export interface OpenedArchive {
  stream: Readable;
  filename: string;
}

/**
 * Serves a signed archive link (the contract's group archive route): a ZIP of the group's succeeded files in requested
 * order plus manifest.json, streamed: each file is read from storage only when the ZIP reaches
 * it, and the response's backpressure paces the reads, so memory stays flat whatever the size.
 * Files are stored, not compressed (PDF and images are compressed already). A forged token, a
 * token of another kind of group, or a group with no file to archive answers 404; a genuine
 * expired link 403 download_expired.
 */
export async function openGroupArchive(ctx: ServiceContext, kind: GroupKind, token: string): Promise<OpenedArchive> {
  const check = readLinkToken(archiveLinkTokens, await signingSecret(ctx), token);
  if (!check.valid) throw notFound();
  if (check.expiresAt <= ctx.clock()) throw new DomainError('download_expired');
  const view = await loadRenderGroup(ctx.db, check.id);
  if (!view || view.group.kind !== kind) throw notFound();
  const now = ctx.clock();
  const files = view.members.flatMap((member) => {
    const job = member.job;
    const stored = job?.status === 'succeeded' && job.removedReason === null && job.storageKey && job.mediaType && job.expiresAt && job.expiresAt > now;
    return stored ? [{ member, storageKey: job.storageKey!, name: entryName(view, member, extensionOf[job.mediaType!] ?? 'bin'), size: job.byteSize }] : [];
  });
  if (files.length === 0) throw notFound();

  // a fixed time makes the same group's archive the same bytes on every download
  const mtime = view.group.createdAt;
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  for (const file of files) {
    zip.addReadStreamLazy(file.name, { mtime, compress: false, ...(file.size !== null ? { size: file.size } : {}) }, (callback) => {
      ctx.storage.open(file.storageKey).then(
        (opened) => (opened ? callback(null, opened.stream) : callback(new Error('archived file is gone'), undefined as never)),
        (error: unknown) => callback(error, undefined as never),
      );
    });
  }
  zip.addBuffer(Buffer.from(JSON.stringify(manifest(view, files), null, 2)), 'manifest.json', { mtime, compress: true });
  zip.end();
  zip.on('error', (error: Error) => {
    ctx.logger.error('archive stream failed', { groupId: view.group.id, error: error.message });
    (zip.outputStream as Readable).destroy(error);
  });
  return { stream: zip.outputStream as Readable, filename: `${view.group.id}.zip` };
}

/** Batches: 001.pdf; carousels: 01-cover.png (position and page id); packs: 01-instagram-square.png (position and size id). */
function entryName(view: RenderGroupView, member: GroupMemberView, extension: string): string {
  const count = view.members.length;
  if (view.group.kind === 'batch') return `${String(member.position + 1).padStart(Math.max(3, String(count).length), '0')}.${extension}`;
  return `${String(member.position + 1).padStart(Math.max(2, String(count).length), '0')}-${member.label}.${extension}`;
}

/** Order, state and error code of every member and the file it became; never customer data. */
function manifest(view: RenderGroupView, files: { member: GroupMemberView; name: string }[]) {
  const fileOf = new Map(files.map((file) => [file.member.position, file.name]));
  const { group } = view;
  return {
    kind: group.kind,
    id: group.id,
    template_id: group.templateId,
    version: group.templateVersion,
    format: group.format,
    state: view.state,
    members: view.members.map((member) => ({
      position: member.position,
      ...(group.kind === 'carousel' ? { page_id: member.label } : group.kind === 'image_pack' ? { size_id: member.label } : {}),
      state: member.state,
      error_code: member.state === 'failed' ? member.errorCode : null,
      job_id: member.job?.id ?? null,
      file: fileOf.get(member.position) ?? null,
    })),
  };
}
