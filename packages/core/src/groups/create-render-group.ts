import { createHash } from 'node:crypto';
import type { RenderOptions } from '@svc/contracts';
import type { DbOrTx, GroupKind } from '@svc/db';
import { canonicalJson } from '@svc/templating';
import { keyIdOf, type Principal, principalSubject } from '../auth/principal.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newGroupId } from '../shared/ids.ts';
import { lockAccountAdmissions, takeRenderCreationToken } from '../renders/admit-render-job.ts';
import { confirmTemplateVersion, type ResolvedTemplateVersion, resolveTemplateVersion } from '../templates/resolve-template-version.ts';
import { admitPendingMembers } from './admit-members.ts';

/** One member as planned at creation: what it renders, or why it failed at once (no job, no credit). */
export type PlannedMember = {
  label: string | null;
  name: string | null;
  width: number | null;
  height: number | null;
} & ({ html: string; options: RenderOptions; assetIds: string[]; dataSha256: string } | { errorCode: string });

export interface GroupRequest {
  principal: Principal;
  kind: GroupKind;
  idempotencyKey: string | null;
  /** The body as received; with the resolved version it makes the fingerprint. */
  body: Record<string, unknown>;
  resolved: ResolvedTemplateVersion;
  format: string;
  /** Whether the create's render creation token is taken already (takeGroupCreationToken). */
  tokenTaken?: boolean;
}

export interface CreateGroupResult {
  groupId: string;
  /** An earlier request with the same key and body: its group, nothing new created. */
  replayed: boolean;
}

/** What every group create receives. */
export interface GroupCreateInput {
  principal: Principal;
  kind: GroupKind;
  request: { template_id: string; version?: number; format: string };
  idempotencyKey: string | null;
}

/**
 * The steps every group create starts with: the Idempotency-Key, the version resolved (and so
 * pinned), and the group of an earlier create with the same key and body, if any.
 */
export async function openGroupRequest(ctx: ServiceContext, { principal, kind, request, idempotencyKey }: GroupCreateInput): Promise<{ group: GroupRequest; replay: CreateGroupResult | null }> {
  const key = checkGroupIdempotencyKey(idempotencyKey);
  const resolved = await resolveTemplateVersion(ctx, { accountId: principal.accountId, templateId: request.template_id, version: request.version });
  const group: GroupRequest = { principal, kind, idempotencyKey: key, body: request, resolved, format: request.format };
  const replay = await findGroupReplay(ctx.db, group);
  return { group, replay: replay ? { groupId: replay, replayed: true } : null };
}

/**
 * The create's one render creation token (429 rate_limited), with the service backlog (503
 * overloaded): a create with work to do before its group is recorded (an image pack's layouts)
 * takes it before that work; otherwise createRenderGroup takes it.
 */
export async function takeGroupCreationToken(ctx: ServiceContext, group: GroupRequest): Promise<void> {
  if (group.tokenTaken) return;
  await takeRenderCreationToken(ctx, principalSubject(group.principal), ctx.clock());
  group.tokenTaken = true;
}

/** The Idempotency-Key of a group create: required, 1 to 255 printable ASCII characters. */
export function checkGroupIdempotencyKey(key: string | null): string {
  if (key === null) throw new DomainError('invalid_request', { details: [{ field: 'Idempotency-Key', reason: 'missing field' }] });
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) throw new DomainError('invalid_request', { details: [{ field: 'Idempotency-Key', reason: 'invalid value' }] });
  return key;
}

/** Hash of the logical request: the kind, template, resolved version and the rest of the body, key-sorted. */
export function groupFingerprint(kind: GroupKind, body: Record<string, unknown>, resolved: ResolvedTemplateVersion): string {
  const { version: _version, ...rest } = body;
  return createHash('sha256').update(canonicalJson({ kind, ...rest, template_id: resolved.templateId, version: resolved.version })).digest('hex');
}

/** The group an earlier request with this key made, if any; another body under the same key conflicts. */
export async function findGroupReplay(db: DbOrTx, request: Omit<GroupRequest, 'format'>): Promise<string | null> {
  const existing = await db.renderGroup.findUnique({
    where: { accountId_kind_idempotencyKey: { accountId: request.principal.accountId, kind: request.kind, idempotencyKey: request.idempotencyKey ?? '' } },
    select: { id: true, fingerprint: true },
  });
  if (!existing) return null;
  if (existing.fingerprint !== groupFingerprint(request.kind, request.body, request.resolved)) throw new DomainError('idempotency_conflict');
  return existing.id;
}

/**
 * Records a planned group and admits what concurrency allows, in one transaction under the
 * account row lock: a concurrent request with the same key finds this group and replays it.
 * Members that failed at once are recorded failed; the rest start pending and are admitted in
 * order (this group after any older pending group of the account). If the account cannot pay
 * for a single member, nothing is created: 402 insufficient_credits.
 */
export async function createRenderGroup(ctx: ServiceContext, request: GroupRequest, members: PlannedMember[]): Promise<CreateGroupResult> {
  const { principal, kind, resolved } = request;
  await takeGroupCreationToken(ctx, request);
  const now = ctx.clock();
  const fingerprint = groupFingerprint(kind, request.body, resolved);
  return ctx.db.$transaction(
    async (tx) => {
      await lockAccountAdmissions(tx, principal.accountId);
      const replay = await findGroupReplay(tx, request);
      if (replay) return { groupId: replay, replayed: true };
      await confirmTemplateVersion(tx, resolved);
      const groupId = newGroupId(kind);
      await tx.renderGroup.create({
        data: {
          id: groupId,
          accountId: principal.accountId,
          keyId: keyIdOf(principal),
          kind,
          templateId: resolved.templateId,
          templateVersion: resolved.version,
          format: request.format,
          idempotencyKey: request.idempotencyKey ?? '',
          fingerprint,
          createdAt: now,
        },
      });
      await tx.renderGroupMember.createMany({
        data: members.map((member, position) => ({
          groupId,
          position,
          accountId: principal.accountId,
          label: member.label,
          name: member.name,
          width: member.width,
          height: member.height,
          ...('errorCode' in member
            ? { state: 'failed' as const, errorCode: member.errorCode, html: '', options: {}, assetIds: [] }
            : { state: 'pending' as const, html: member.html, options: member.options, assetIds: member.assetIds, dataSha256: member.dataSha256 }),
        })),
      });
      await admitPendingMembers(tx, { accountId: principal.accountId, now, groupConcurrency: ctx.config.groupConcurrency, metrics: ctx.metrics });
      const unpaid = await tx.renderGroupMember.count({ where: { groupId, errorCode: 'insufficient_credits' } });
      const admitted = await tx.renderGroupMember.count({ where: { groupId, state: 'admitted' } });
      if (unpaid > 0 && admitted === 0) throw new DomainError('insufficient_credits');
      return { groupId, replayed: false };
    },
    { timeout: 60_000 },
  );
}
