import type { SizeVariant, TemplateDetail, TemplateSummary, TemplateVersionDetail } from '@svc/contracts';
import type { Template, TemplateArchiveEvent, TemplateVersion } from '@svc/db';

/** The public shape of a template (spec 2.5 TemplateSummary). */
export function toTemplateSummary(template: Template): TemplateSummary {
  return {
    tags: template.tags,
    id: template.id,
    name: template.name,
    created_at: template.createdAt.toISOString(),
    archived_at: template.archivedAt?.toISOString() ?? null,
    latest_version: template.latestVersion,
  };
}

export function toVersionDetail(version: TemplateVersion): TemplateVersionDetail {
  return {
    version: version.version,
    created_at: version.createdAt.toISOString(),
    source: version.source,
    schema: version.schema ?? null,
    sizes: version.sizes as unknown as SizeVariant[],
  };
}

/** TemplateDetail: the summary, its archive history (oldest first) and the latest version's content. */
export function toTemplateDetail(template: Template, latest: TemplateVersion, archives: TemplateArchiveEvent[]): TemplateDetail {
  const { source, schema, sizes } = toVersionDetail(latest);
  return {
    ...toTemplateSummary(template),
    archive_history: archives.map((event) => ({
      archived_at: event.archivedAt.toISOString(),
      restored_at: event.restoredAt?.toISOString() ?? null,
    })),
    source,
    schema,
    sizes,
  };
}
