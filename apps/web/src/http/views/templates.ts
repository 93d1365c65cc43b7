import type { SizeVariant, TemplateAdaptResponse, TemplateDetail, TemplateSummary, TemplateVersionDetail } from '@svc/contracts';
import type { AdaptedSize, TemplateRecord, TemplateVersionRecord, TemplateWithContent } from '@svc/core';

/** The public shape of a template (the contract's TemplateSummary). */
export function templateSummaryBody(template: TemplateRecord): TemplateSummary {
  return {
    tags: template.tags,
    id: template.id,
    name: template.name,
    created_at: template.createdAt.toISOString(),
    archived_at: template.archivedAt?.toISOString() ?? null,
    latest_version: template.latestVersion,
  };
}

export function templateVersionBody(version: TemplateVersionRecord): TemplateVersionDetail {
  return {
    version: version.version,
    created_at: version.createdAt.toISOString(),
    source: version.source,
    // stored schemas passed the saved-template checks, which take only an object or a boolean
    schema: (version.schema ?? null) as TemplateVersionDetail['schema'],
    sizes: version.sizes as unknown as SizeVariant[],
  };
}

/** TemplateDetail: the summary, its archive history (oldest first) and the latest version's content. */
export function templateDetailBody({ template, latest, archives }: TemplateWithContent): TemplateDetail {
  const { source, schema, sizes } = templateVersionBody(latest);
  return {
    ...templateSummaryBody(template),
    archive_history: archives.map((event) => ({
      archived_at: event.archivedAt.toISOString(),
      restored_at: event.restoredAt?.toISOString() ?? null,
    })),
    source,
    schema,
    sizes,
  };
}

export function adaptBody(sizes: AdaptedSize[]): TemplateAdaptResponse {
  return {
    sizes: sizes.map((size) =>
      'source' in size
        ? { width: size.width, height: size.height, source: size.source }
        : { width: size.width, height: size.height, error: { code: size.errorCode } },
    ),
  };
}
