import { listStarters, previewStarter } from '@svc/core';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { PreviewFrame } from '../../../../src/dashboard/templates/preview-frame.tsx';
import { UseStarterForm } from '../../../../src/dashboard/templates/use-starter-form.tsx';
import { Badge } from '../../../../src/dashboard/ui/badge.tsx';
import { buttonClass } from '../../../../src/dashboard/ui/button.tsx';
import { PageHeader } from '../../../../src/dashboard/ui/card.tsx';

export const metadata = { title: 'Starter gallery' };

/** A document starter's thumbnail lays out a page at about 96 dpi and shows its top. */
const pageCanvas = { width: 794, height: 1123 };
const landscapePage = { width: 1123, height: 794 };

export default async function Gallery() {
  const session = await requireSession();
  const starters = await Promise.all(listStarters().map(async (starter) => ({ starter, html: await previewStarter(session.ctx, starter) })));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Starter gallery"
        description="Well-made templates with a schema and sample data. Using one copies it into your account as a new template you can change."
        actions={
          <a className={buttonClass('secondary')} href="/dashboard/templates">
            Back to your templates
          </a>
        }
      />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Starters">
        {starters.map(({ starter, html }) => {
          const canvas =
            starter.output.type === 'image' ? { width: starter.output.width, height: starter.output.height } : starter.output.pdf.landscape ? landscapePage : pageCanvas;
          return (
            <li key={starter.id} className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
              <div className="flex h-56 items-center justify-center overflow-hidden bg-slate-100 p-3" aria-hidden="true">
                <PreviewFrame html={html} title={`${starter.name} preview`} canvas={canvas} displayWidth={canvas.width > canvas.height ? 300 : 150} className="bg-white shadow" />
              </div>
              <div className="flex flex-1 flex-col gap-2 p-4">
                <h2 className="text-base font-semibold">{starter.name}</h2>
                <p className="flex-1 text-sm text-slate-600">{starter.description}</p>
                <div className="flex flex-wrap gap-1">
                  <Badge tone="info">{starter.output.type === 'pdf' ? `PDF ${starter.output.pdf.format}${starter.output.pdf.landscape ? ' landscape' : ''}` : `${starter.output.format.toUpperCase()} ${starter.output.width}×${starter.output.height}`}</Badge>
                  {starter.sizes?.map((size) => (
                    <Badge key={size.id}>
                      + {size.name} {size.width}×{size.height}
                    </Badge>
                  ))}
                </div>
                <UseStarterForm csrfToken={session.csrfToken} starterId={starter.id} starterName={starter.name} />
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
