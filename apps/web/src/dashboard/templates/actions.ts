'use server';
// Server actions of the templates area: each checks the session and its CSRF token
// (sessionAction) and calls one core use-case with the session principal.
import { type FieldDetail, errorDefinition, ImageRequest, PdfRequest, type ReportProblem, SizeVariantInput } from '@svc/contracts';
import {
  adaptTemplate,
  archiveTemplate,
  compareTemplateVersions,
  copyStarter,
  createRender,
  createTemplate,
  createTemplateVersion,
  DomainError,
  mintDownloadLink,
  previewTemplate,
  reportOf,
  updateTemplate,
} from '@svc/core';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { sessionAction } from '../actions.ts';

const json = z.record(z.string(), z.unknown());
const templateId = z.string().min(1).max(64);

/** A preview answers its own failures as data: the editor needs each detail's line and column. */
export type PreviewOutcome = { html: string } | { error: { code: string; message: string; details: FieldDetail[] } };

async function outcomeOf<T>(work: () => Promise<T>): Promise<T | { error: { code: string; message: string; details: FieldDetail[] } }> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { error: { code: error.code, message: error.clientMessage ?? errorDefinition(error.code).message, details: error.details ?? [] } };
  }
}

export const previewSourceAction = sessionAction(
  z.object({ source: z.string(), data: json, schema: z.union([z.boolean(), json]).nullable().optional() }),
  async ({ source, data, schema }, { ctx, principal }): Promise<PreviewOutcome> =>
    outcomeOf(() => previewTemplate(ctx, { principal, request: { source, data, ...(schema === undefined || schema === null ? {} : { schema }) } })),
);

export const createTemplateAction = sessionAction(
  z.object({ name: z.string().max(120).optional(), input_mode: z.enum(['html', 'blank']) }),
  async ({ name, input_mode }, { ctx, accountId }) => {
    const source =
      input_mode === 'blank'
        ? '<meta name="svc-canvas" content="1200x630">\n<div data-svc-page="main" data-svc-page-name="Main" style="width: 1200px; height: 630px; display: flex; align-items: center; justify-content: center; font: 700 64px sans-serif;">\n  {{ title | default("Your title") }}\n</div>\n'
        : '<!doctype html>\n<html>\n<body>\n  <h1>Hello {{ name | default("world") }}</h1>\n</body>\n</html>\n';
    const created = await createTemplate(ctx, { accountId, request: { source, name: name?.trim() || null, input_mode } });
    redirect(`/dashboard/templates/${created.template.id}`);
  },
);

export const copyStarterAction = sessionAction(z.object({ starterId: z.string().min(1).max(64) }), async ({ starterId }, { ctx, accountId }) => {
  const created = await copyStarter(ctx, { accountId, starterId });
  redirect(`/dashboard/templates/${created.template.id}?from=${encodeURIComponent(starterId)}`);
});

export const saveVersionAction = sessionAction(
  z.object({ templateId, source: z.string(), schema: z.union([z.boolean(), json]).nullable().optional(), sizes: z.array(SizeVariantInput).optional() }),
  async ({ templateId, source, schema, sizes }, { ctx, accountId }) => {
    const saved = await outcomeOf(() => createTemplateVersion(ctx, { accountId, templateId, request: { source, schema: schema ?? null, sizes: sizes ?? [] } }));
    return 'error' in saved ? saved : { version: saved.version };
  },
);

export const renameTemplateAction = sessionAction(
  // tags arrive as one comma-separated field
  z.object({ templateId, name: z.string().max(120), tags: z.string().max(1000).transform((text) => text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '')) }),
  async ({ templateId, name, tags }, { ctx, accountId }) => {
    const updated = await updateTemplate(ctx, { accountId, templateId, changes: { name: name.trim() || null, tags } });
    return { name: updated.name, tags: updated.tags };
  },
);

export const archiveTemplateAction = sessionAction(z.object({ templateId, restore: z.preprocess((value) => value === true || value === 'true', z.boolean()) }), async ({ templateId, restore }, { ctx, accountId }) => {
  const template = restore
    ? await updateTemplate(ctx, { accountId, templateId, changes: { archived_at: null } })
    : await archiveTemplate(ctx, { accountId, templateId });
  return { archivedAt: template.archivedAt?.toISOString() ?? null };
});

/** What a test render answers: the file to download, or why it failed. */
export type TestRenderOutcome =
  | {
      jobId: string;
      status: string;
      downloadUrl: string | null;
      errorCode: string | null;
      mediaType: string | null;
      /** the render report's problems (docs/render-report.md), shown beside the render */
      problems: ReportProblem[];
      omitted: number;
    }
  | { error: { code: string; message: string; details: FieldDetail[] } };

export const testRenderAction = sessionAction(
  z.object({
    templateId,
    version: z.int().min(1),
    data: json,
    output: z.discriminatedUnion('type', [
      z.object({ type: z.literal('pdf'), pdf: json.optional() }),
      z.object({ type: z.literal('image'), format: z.enum(['png', 'jpeg', 'webp']), width: z.int().optional(), height: z.int().optional(), size_id: z.string().optional() }),
    ]),
  }),
  async ({ templateId, version, data, output }, { ctx, principal }): Promise<TestRenderOutcome> =>
    outcomeOf(async () => {
      const common = { template_id: templateId, version, data, wait: true };
      const { job } =
        output.type === 'pdf'
          ? await createRender(ctx, { principal, kind: 'pdf', request: PdfRequest.parse({ ...common, ...(output.pdf ? { pdf: output.pdf } : {}) }), idempotencyKey: null })
          : await createRender(ctx, {
              principal,
              kind: 'image',
              request: ImageRequest.parse({
                ...common,
                ...(output.size_id ? { size_id: output.size_id } : {}),
                image: { format: output.format, ...(output.width ? { width: output.width } : {}), ...(output.height ? { height: output.height } : {}) },
              }),
              idempotencyKey: null,
            });
      const link = await mintDownloadLink(ctx, job);
      const report = reportOf(job);
      return { jobId: job.id, status: job.status, downloadUrl: link?.url ?? null, errorCode: job.errorCode, mediaType: job.mediaType, problems: report.problems, omitted: report.omitted };
    }),
);

/** Adapted sizes with the HTML of each, evaluated with the editor's data, for thumbnails. */
export type AdaptOutcome =
  | { sizes: ({ width: number; height: number } & ({ source: string; html: string | null } | { errorCode: string }))[] }
  | { error: { code: string; message: string; details: FieldDetail[] } };

export const adaptSizesAction = sessionAction(
  z.object({ source: z.string(), data: json, sizes: z.array(z.object({ width: z.int(), height: z.int() })).min(1).max(20) }),
  async ({ source, data, sizes }, { ctx, principal }): Promise<AdaptOutcome> =>
    outcomeOf(async () => {
      const adapted = await adaptTemplate(ctx, { principal, request: { source, sizes } });
      const withHtml = [];
      for (const size of adapted) {
        if (!('source' in size)) {
          withHtml.push(size);
          continue;
        }
        // a thumbnail that cannot be evaluated (data missing for it) still shows the size
        const preview = await outcomeOf(() => previewTemplate(ctx, { principal, request: { source: size.source, data } }));
        withHtml.push({ ...size, html: 'html' in preview ? preview.html : null });
      }
      return { sizes: withHtml };
    }),
);

export const compareVersionsAction = sessionAction(
  z.object({ templateId, versions: z.tuple([z.int().min(1), z.int().min(1)]), data: json, width: z.int().min(320).max(1600), height: z.int().min(200).max(2400) }),
  async ({ templateId, versions, data, width, height }, { ctx, principal }) =>
    outcomeOf(async () => {
      const compared = await compareTemplateVersions(ctx, { principal, templateId, versions, data, width, height });
      const png = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
      return { images: compared.images.map(png) as [string, string], difference: png(compared.difference), changedShare: compared.changedShare };
    }),
);
