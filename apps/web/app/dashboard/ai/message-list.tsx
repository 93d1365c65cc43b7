// The messages of a build or chat, oldest first: what was asked, where it stands (with live
// progress while it runs), what it cost, why it failed, and the candidate preview it rendered.
import { renderKindOf, type ReportProblem, type TemplateBuildInput, type TemplateOutput } from '@svc/contracts';
import { getRender, mintDownloadLink, reportOf, type ServiceContext, type TemplateMessageRecord } from '@svc/core';
import type { ReactNode } from 'react';
import { ReportProblemList } from '../../../src/dashboard/report/report-view.tsx';
import { Badge, type BadgeTone } from '../../../src/dashboard/ui/badge.tsx';
import { LocalDate, LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import { messageProgress, type ProgressView } from './actions.ts';
import { MessageProgress } from './message-progress.tsx';

const stateTones: Record<string, BadgeTone> = { queued: 'info', running: 'info', previewing: 'info', succeeded: 'success', failed: 'danger', cancelled: 'neutral' };
const pending = ['queued', 'running', 'previewing'];

export interface Preview {
  kind: 'pdf' | 'image';
  /** A signed download link, as a path on this site (the page may be served under another host name). */
  url: string;
  /** the preview render's problems (its render report) */
  problems: ReportProblem[];
  omitted: number;
}

/** The candidate's preview job as a link the browser can open, while its file is kept. */
export async function previewOf(ctx: ServiceContext, accountId: string, previewId: string | null): Promise<Preview | null> {
  if (!previewId) return null;
  const kind = renderKindOf(previewId) ?? 'image';
  const job = await getRender(ctx, { accountId, kind, jobId: previewId }).catch(() => null);
  const link = job && (await mintDownloadLink(ctx, job));
  if (!link) return null;
  const url = new URL(link.url);
  const { problems, omitted } = reportOf(job);
  return { kind, url: `${url.pathname}${url.search}`, problems, omitted };
}

export function progressView(message: TemplateMessageRecord, now: Date, typicalSeconds: number | null): ProgressView {
  const end = message.finishedAt ?? now;
  return {
    state: message.state,
    stage: message.phase,
    elapsedSeconds: Math.max(0, Math.floor((end.getTime() - message.createdAt.getTime()) / 1000)),
    typicalSeconds,
    reviewCount: message.reviewCount,
    maxReviews: message.maxReviews,
    repairCode: message.repairCode,
  };
}

function inputSummary(message: TemplateMessageRecord): string {
  const input = message.input as TemplateBuildInput;
  if (input.type === 'prompt') return input.prompt;
  if (input.type === 'html') return `HTML: ${input.html}`;
  if (input.type === 'image') return 'From an image';
  return 'Template source';
}

function outputLabel(output: TemplateOutput | null): string | null {
  if (!output) return null;
  return output.type === 'pdf' ? 'PDF' : `${output.format.toUpperCase()} ${output.width} × ${output.height}`;
}

export interface MessageListProps {
  messages: TemplateMessageRecord[];
  previews: Map<string, Preview>;
  csrfToken: string;
  now: Date;
  typicalSeconds: number | null;
  /** Buttons for a message (cancel while pending; apply or discard the current draft). */
  actionsFor?: (message: TemplateMessageRecord) => ReactNode;
  /** Extra content under a message (an image suggestion). */
  extraFor?: (message: TemplateMessageRecord) => ReactNode;
}

export function MessageList({ messages, previews, csrfToken, now, typicalSeconds, actionsFor, extraFor }: MessageListProps) {
  return (
    <ol className="grid gap-4" aria-label="Messages">
      {messages.map((message) => {
        const preview = previews.get(message.id);
        const output = outputLabel(message.output as TemplateOutput | null);
        const summary = inputSummary(message);
        return (
          <li key={message.id} className="rounded-md border border-slate-200 p-4" data-testid="ai-message" data-state={message.state}>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={stateTones[message.state] ?? 'neutral'}>{message.state}</Badge>
              <span className="text-slate-600">
                <LocalDate value={message.createdAt} /> · <LocalNumber value={message.credits} /> credits{output ? ` · ${output}` : ''}
              </span>
            </div>
            <p className="mt-2 line-clamp-3 text-sm whitespace-pre-wrap break-words text-slate-900">{summary.length > 400 ? `${summary.slice(0, 400)}…` : summary}</p>
            {pending.includes(message.state) ? (
              <div className="mt-3">
                <MessageProgress poll={messageProgress} csrfToken={csrfToken} messageId={message.id} initial={progressView(message, now, typicalSeconds)} />
              </div>
            ) : null}
            {message.state === 'failed' ? (
              <p className="mt-2 text-sm text-red-800" role="note">
                Failed ({message.failureCategory}): <span className="font-mono">{message.failureCode}</span>. Nothing was charged.
              </p>
            ) : null}
            {preview ? (
              <figure className="mt-3" data-testid="candidate-preview">
                {preview.kind === 'image' ? (
                  // eslint-disable-next-line @next/next/no-img-element
                  <img src={preview.url} alt="Preview of this draft" className="max-h-96 max-w-full rounded border border-slate-200" />
                ) : (
                  // the download route answers as an attachment, so a PDF is offered, not embedded (an embed would download on every page view)
                  <p className="rounded border border-slate-200 bg-slate-50 px-4 py-6 text-sm text-slate-700">
                    The preview is a PDF.{' '}
                    <a href={preview.url} className="font-medium text-indigo-700 underline">
                      Download the PDF preview
                    </a>
                  </p>
                )}
                <figcaption className="mt-1 text-xs text-slate-600">
                  Candidate preview (not billed).{' '}
                  <a href={preview.url} className="text-indigo-700 underline" data-testid="preview-link">
                    Download
                  </a>
                </figcaption>
                {preview.problems.length > 0 ? (
                  <div role="group" aria-label="Problems of this preview" className="mt-2 max-w-prose space-y-1">
                    <p className="text-xs font-medium text-slate-700">Problems the preview render found</p>
                    <ReportProblemList problems={preview.problems} omitted={preview.omitted} compact />
                  </div>
                ) : null}
              </figure>
            ) : null}
            {extraFor?.(message)}
            {actionsFor ? <div className="mt-3 flex flex-wrap gap-3">{actionsFor(message)}</div> : null}
          </li>
        );
      })}
    </ol>
  );
}
