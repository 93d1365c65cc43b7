import type { ImageRequest, PdfRequest } from '@svc/contracts';
import { checkAssetReferences, checkHeaderFooterImages } from '../assets/asset-references.ts';
import { type DbOrTx, queryAfter } from '@svc/db';
import { keyIdOf, overageCapOf, type Principal, principalSubject } from '../auth/principal.ts';
import type { CompletionWatch } from '../ports/completion-waiter.ts';
import type { ServiceContext } from '../shared/context.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import { DomainError } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { newRenderJobId } from '../shared/ids.ts';
import { accountLock, admitRenderJob, admitRenderJobWithToken, lockAccountAdmissions, takeRenderCreationToken } from './admit-render-job.ts';
import { defaultFilename, safeName } from './filename.ts';
import { isTerminal, readRenderJob } from './render-job-store.ts';
import { buildRenderSpec, isTemplateHtml, type RenderKind } from './render-spec.ts';
import { requestFingerprint } from './request-fingerprint.ts';
import { confirmTemplateVersion, resolveTemplateVersion, type ResolvedTemplateVersion, templateVersionHeld } from '../templates/resolve-template-version.ts';

export interface CreateRenderOptions {
  principal: Principal;
  kind: RenderKind;
  request: PdfRequest | ImageRequest;
  idempotencyKey: string | null;
}

export interface CreateRenderResult {
  job: RenderJobRecord;
  /** Whether the job had reached a terminal state when the answer was made. */
  finished: boolean;
}

/**
 * Admits one render (the contract's render job lifecycle and PDF render routes): validate and evaluate, then in one transaction check
 * idempotency and concurrency, reserve a credit, record the job and enqueue it. With
 * wait (the default) the answer comes when the job ends or the bounded wait runs out.
 */
export async function createRender(ctx: ServiceContext, options: CreateRenderOptions): Promise<CreateRenderResult> {
  const { principal, kind, request, idempotencyKey } = options;
  if (idempotencyKey !== null && !/^[\x20-\x7e]{1,255}$/.test(idempotencyKey)) {
    throw new DomainError('invalid_request', { details: [{ field: 'Idempotency-Key', reason: 'invalid value' }] });
  }
  if (kind === 'pdf') checkHeaderFooterImages((request as PdfRequest).pdf ?? {});
  // a saved template's version is resolved once, before validation, admission, idempotency, queueing and billing
  const saved = request.template_id
    ? await resolveTemplateVersion(ctx, { accountId: principal.accountId, templateId: request.template_id, version: request.version })
    : undefined;
  // the kit's values are read once here and captured in the evaluated html (the contract's brand values)
  const brand = await selectBrandValues(ctx.db, {
    accountId: principal.accountId,
    requested: request.brand_kit_id,
    source: saved ? saved.source : isTemplateHtml(request) ? request.html : undefined,
    sourceField: saved ? 'template_id' : 'html',
  });
  const spec = await buildRenderSpec({ kind, request, saved, brand, account: { ctx, accountId: principal.accountId } });
  // after template expansion: what the page will load is what must be owned
  const assetIds = await checkAssetReferences(ctx.db, principal.accountId, spec.html, saved ? 'template_id' : 'html');

  const replayed = idempotencyKey ? await findReplay(ctx.db, principal.accountId, kind, idempotencyKey, requestFingerprint(ctx, spec)) : null;
  const waiting = request.wait !== false;
  let jobId: string;
  let watch: CompletionWatch | null = null;
  if (replayed) jobId = replayed;
  else {
    // listening for the new job's end starts before its admission commits, so the wait needs
    // no look at the job before the notice comes
    const newJobId = newRenderJobId(kind);
    watch = waiting ? await ctx.completions.watch(newJobId) : null;
    const now = ctx.clock();
    try {
      jobId = await admit(ctx, options, spec, assetIds, now, saved, newJobId);
    } catch (error) {
      watch?.cancel();
      throw error;
    }
    // an idempotent replay found inside the admission is another request's job
    if (jobId !== newJobId) {
      watch?.cancel();
      watch = null;
    }
  }
  let carried: RenderJobRecord | null = null;
  if (waiting) {
    const id = jobId;
    const isFinished = async () => isTerminal(await ctx.db.renderJob.findUnique({ where: { id }, select: { status: true } }));
    carried = watch ? await watch.wait(ctx.config.renderWaitMs, isFinished) : await ctx.completions.wait(id, ctx.config.renderWaitMs, isFinished);
  }
  // the finish's notice carries the finished job, so the answer needs no look at it
  const job = carried ?? (await readRenderJob(ctx.db, jobId));
  return { job, finished: isTerminal(job) };
}

async function findReplay(db: DbOrTx, accountId: string, kind: RenderKind, key: string, fingerprint: string): Promise<string | null> {
  const record = await db.idempotencyRecord.findUnique({ where: { accountId_kind_key: { accountId, kind, key } } });
  if (!record) return null;
  if (record.fingerprint !== fingerprint) throw new DomainError('idempotency_conflict');
  return record.jobId;
}

async function admit(
  ctx: ServiceContext,
  options: CreateRenderOptions,
  spec: Awaited<ReturnType<typeof buildRenderSpec>>,
  assetIds: string[],
  now: Date,
  saved: ResolvedTemplateVersion | undefined,
  jobId: string,
): Promise<string> {
  const { principal, kind, request, idempotencyKey } = options;
  const job = {
    id: jobId,
    accountId: principal.accountId,
    plan: principal.plan,
    keyId: keyIdOf(principal),
    overageCap: overageCapOf(principal),
    kind,
    reference: request.reference ?? null,
    filename: request.filename ?? defaultFilename(now, spec.template && (safeName(spec.template.name ?? '') || spec.template.id)),
    template: spec.template ? { id: spec.template.id, version: spec.template.version } : null,
    input: { html: spec.html, options: spec.options, assetIds, dataSha256: spec.dataSha256 },
    retryOf: null,
    now,
  };
  // the render_creation token (429) and the backlog (503) come first; the common case (no
  // idempotency key, a saved version still selected, a bucket that pays) asks them with the
  // account lock, the version's confirmation and the admission, one transaction in one round
  // trip; anything else takes the token apart and admits the general way below (a common
  // admission that did not pay, or whose version changed, took the token and wrote nothing else)
  const subject = principalSubject(principal);
  if (!idempotencyKey) {
    const held = saved ? templateVersionHeld(saved) : undefined;
    const admitted = await admitRenderJobWithToken(ctx, subject, (sql) => queryAfter(ctx.db, accountLock(principal.accountId), sql), job, held);
    if (admitted) return jobId;
  } else await takeRenderCreationToken(ctx, subject, now);
  return ctx.db.$transaction(async (tx) => {
    await lockAccountAdmissions(tx, principal.accountId);
    if (idempotencyKey) {
      const replay = await findReplay(tx, principal.accountId, kind, idempotencyKey, requestFingerprint(ctx, spec));
      if (replay) return replay;
    }
    if (saved) await confirmTemplateVersion(tx, saved);
    await admitRenderJob(tx, job, ctx.metrics);
    if (idempotencyKey) {
      await tx.idempotencyRecord.create({ data: { accountId: principal.accountId, kind, key: idempotencyKey, fingerprint: requestFingerprint(ctx, spec), jobId, createdAt: now } });
    }
    return jobId;
  });
}
