import type { ImageRequest, PdfRequest } from '@svc/contracts';
import { checkAssetReferences, checkHeaderFooterImages } from '../assets/asset-references.ts';
import type { DbOrTx } from '@svc/db';
import { keyIdOf, overageCapOf, type Principal, principalSubject } from '../auth/principal.ts';
import { reserveCredit } from '../credits/reserve-credit.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { selectBrandValues } from '../brand-kits/brand-values.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { defaultFilename, safeName } from './filename.ts';
import { buildRenderSpec, isTemplateHtml, type RenderKind } from './render-spec.ts';
import { confirmTemplateVersion, resolveTemplateVersion, type ResolvedTemplateVersion } from '../templates/resolve-template-version.ts';

/** Live (queued or running) jobs allowed at once (spec part 8). */
export const accountConcurrency = 16;
export const keyConcurrency = 8;
const concurrencyRetrySeconds = 1;
const overloadRetrySeconds = 5;

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
 * Admits one render (spec 3.1, 4.2): validate and evaluate, then in one transaction check
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
  // the kit's values are read once here and captured in the evaluated html (spec 2.8)
  const brand = await selectBrandValues(ctx.db, {
    accountId: principal.accountId,
    requested: request.brand_kit_id,
    source: saved ? saved.source : isTemplateHtml(request) ? request.html : undefined,
    sourceField: saved ? 'template_id' : 'html',
  });
  const spec = await buildRenderSpec(kind, request, saved, brand);
  // after template expansion: what the page will load is what must be owned
  const assetIds = await checkAssetReferences(ctx.db, principal.accountId, spec.html, saved ? 'template_id' : 'html');

  const replayed = idempotencyKey ? await findReplay(ctx.db, principal.accountId, kind, idempotencyKey, spec.fingerprint) : null;
  const now = ctx.clock();
  const jobId =
    replayed ??
    (await (async () => {
      await takeRateToken(ctx.db, 'render_creation', principalSubject(principal), now);
      if (await backlogFull(ctx.db, ctx.config.maxRenderBacklog)) throw new DomainError('overloaded', { retryAfterSeconds: overloadRetrySeconds });
      return admit(ctx, options, spec, assetIds, now, saved);
    })());

  if (request.wait !== false) {
    await ctx.completions.wait(jobId, ctx.config.renderWaitMs, async () => isTerminal(await ctx.db.renderJob.findUnique({ where: { id: jobId }, select: { status: true } })));
  }
  const job = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: jobId } });
  return { job, finished: isTerminal(job) };
}

/** Whether the queue already holds `bound` jobs; counts no further than that. */
async function backlogFull(db: DbOrTx, bound: number): Promise<boolean> {
  const [row] = await db.$queryRaw<{ queued: number }[]>`
    SELECT count(*)::int AS queued FROM (SELECT 1 FROM render_jobs WHERE status = 'queued' LIMIT ${bound}) AS backlog`;
  return (row?.queued ?? 0) >= bound;
}

function isTerminal(job: { status: string } | null): boolean {
  return job !== null && job.status !== 'queued' && job.status !== 'running';
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
): Promise<string> {
  const { principal, kind, request, idempotencyKey } = options;
  const keyId = keyIdOf(principal);
  return ctx.db.$transaction(async (tx) => {
    // serialises admissions of one account: concurrency counts and idempotency keys cannot race
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${principal.accountId} FOR UPDATE`;
    if (idempotencyKey) {
      const replay = await findReplay(tx, principal.accountId, kind, idempotencyKey, spec.fingerprint);
      if (replay) return replay;
    }
    if (saved) await confirmTemplateVersion(tx, saved);
    // a session's "key" count is the account's jobs made without a key (README: principals)
    const [live] = await tx.$queryRaw<{ account: number; key: number }[]>`
      SELECT count(*)::int AS account, (count(*) FILTER (WHERE key_id IS NOT DISTINCT FROM ${keyId}))::int AS key
        FROM render_jobs WHERE account_id = ${principal.accountId} AND status IN ('queued', 'running')`;
    if ((live?.account ?? 0) >= accountConcurrency) throw new DomainError('account_concurrency_limited', { retryAfterSeconds: concurrencyRetrySeconds });
    if ((live?.key ?? 0) >= keyConcurrency) {
      throw new DomainError('key_concurrency_limited', { retryAfterSeconds: concurrencyRetrySeconds });
    }

    const jobId = newId(kind === 'pdf' ? 'pdf_' : 'image_');
    await reserveCredit(tx, { accountId: principal.accountId, plan: principal.plan, jobId, keyId, overageCap: overageCapOf(principal), now });
    const filename = request.filename ?? defaultFilename(now, spec.template && (safeName(spec.template.name ?? '') || spec.template.id));
    // the job and its input in one statement
    await tx.$executeRaw`
      WITH job AS (
        INSERT INTO render_jobs (id, account_id, key_id, kind, reference, filename, template_id, template_version, options, created_at)
        VALUES (${jobId}, ${principal.accountId}, ${keyId}, ${kind}::"RenderKind", ${request.reference ?? null}, ${filename},
                ${spec.template?.id ?? null}, ${spec.template?.version ?? null}, ${JSON.stringify(spec.options)}::jsonb, ${now})
        RETURNING id)
      INSERT INTO render_inputs (job_id, html) SELECT id, ${spec.html} FROM job`;
    // assets are immutable, so capturing the ids captures the exact bytes the worker will serve
    if (assetIds.length > 0) {
      await tx.$executeRaw`INSERT INTO render_job_assets (job_id, asset_id) SELECT ${jobId}, unnest(${assetIds}::text[])`;
    }
    if (idempotencyKey) {
      await tx.idempotencyRecord.create({ data: { accountId: principal.accountId, kind, key: idempotencyKey, fingerprint: spec.fingerprint, jobId, createdAt: now } });
    }
    await enqueue(tx, 'render_job', { job_id: jobId }, { jobKey: `render:${jobId}` });
    return jobId;
  });
}
