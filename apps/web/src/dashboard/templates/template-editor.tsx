'use client';

import type { FieldDetail, SizeVariant } from '@svc/contracts';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { ErrorState, Notice } from '../ui/states.tsx';
import { type PreviewOutcome, previewSourceAction, saveVersionAction } from './actions.ts';
import { callAction } from './call-action.ts';
import { CanvasPanel } from './canvas-panel.tsx';
import { DataPanel } from './data-panel.tsx';
import { FontPicker } from './font-picker.tsx';
import { LazyCodeEditor, LazyVisualEditor } from './lazy.tsx';
import { FittedPreviewFrame } from './preview-frame.tsx';
import { canvasOf } from './source-facts.ts';
import { TestRenderPanel, type OutputChoice } from './test-render-panel.tsx';
import { VersionPanel } from './version-panel.tsx';
import type { VisualBrandKit } from './visual/inspector.tsx';
import { SourceViewSwitch } from './visual/source-view-switch.tsx';

export interface EditorTemplate {
  id: string;
  name: string | null;
  inputMode: 'html' | 'blank';
  archived: boolean;
  latestVersion: number;
}

export interface EditorVersion {
  version: number;
  source: string;
  schema: unknown;
  sizes: SizeVariant[];
}

export interface TemplateEditorProps {
  csrfToken: string;
  template: EditorTemplate;
  version: EditorVersion;
  versions: { version: number; createdAt: string }[];
  initialData: Record<string, unknown>;
  output: OutputChoice;
  /** Opened right after saving this version (the address carries ?saved=N): shows the saved notice. */
  justSaved?: boolean;
  /** The brand kit the version's source names (svc-brand-kit): its colours and fonts in the visual editor. */
  brandKit?: VisualBrandKit | null;
}

/** The page a document template is previewed on: A4 at 96 dpi. */
const documentPage = { width: 794, height: 1123 };

/** Waiting this long after the last keystroke before asking for a preview. */
const previewDelayMs = 400;

type PreviewState =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'shown'; html: string }
  | { state: 'failed'; message: string; code: string; details: FieldDetail[]; lastHtml: string | null };

/** The editor page's client side: source, data, live preview, canvas and sizes, versions, test render. */
export function TemplateEditor({ csrfToken, template, version, versions, initialData, output, justSaved = false, brandKit = null }: TemplateEditorProps) {
  const router = useRouter();
  const [source, setSource] = useState(version.source);
  const [schemaText, setSchemaText] = useState(version.schema === null ? '' : JSON.stringify(version.schema, null, 2));
  const [data, setData] = useState<Record<string, unknown>>(initialData);
  const [sizes, setSizes] = useState<SizeVariant[]>(version.sizes);
  const [preview, setPreview] = useState<PreviewState>({ state: 'idle' });
  const [focusLine, setFocusLine] = useState<{ line: number; column?: number; nonce: number } | null>(null);
  const [insertion, setInsertion] = useState<{ text: string; nonce: number } | null>(null);
  const [saving, setSaving] = useState(false);
  // canvas templates can be edited visually; once opened the visual view stays mounted, so its undo history survives a look at the code
  const [sourceView, setSourceView] = useState<'visual' | 'code'>('code');
  const [visualOpened, setVisualOpened] = useState(false);
  // the editor opens anew on the version it saved (its key is the version): the notice stays
  const [saved, setSaved] = useState<{ ok: true; version: number } | { ok: false; message: string; code: string; details: FieldDetail[] } | null>(
    justSaved ? { ok: true, version: version.version } : null,
  );
  const lastHtml = useRef<string | null>(null);
  const dataKey = `svc-template-data:${template.id}`;

  // the data a user worked with stays in this browser across versions and visits
  useEffect(() => {
    try {
      const kept = window.localStorage.getItem(dataKey);
      if (kept && Object.keys(initialData).length === 0) setData(JSON.parse(kept) as Record<string, unknown>);
    } catch {
      // storage unavailable or unreadable: keep the initial data
    }
  }, [dataKey, initialData]);
  useEffect(() => {
    try {
      window.localStorage.setItem(dataKey, JSON.stringify(data));
    } catch {
      // storage full or unavailable: the data lives in the page only
    }
  }, [dataKey, data]);
  const request = useRef(0);

  const schema = useMemo(() => {
    if (schemaText.trim() === '') return { ok: true as const, value: null };
    try {
      return { ok: true as const, value: JSON.parse(schemaText) as unknown };
    } catch {
      return { ok: false as const, value: null };
    }
  }, [schemaText]);
  const canvas = canvasOf(source);
  const dirty = source !== version.source || JSON.stringify(schema.value) !== JSON.stringify(version.schema) || JSON.stringify(sizes) !== JSON.stringify(version.sizes);

  // the live preview: debounced, and only the newest answer counts
  useEffect(() => {
    if (!schema.ok) return;
    const id = ++request.current;
    const timer = setTimeout(async () => {
      setPreview((current) => (current.state === 'idle' ? { state: 'loading' } : current));
      const result = await callAction(previewSourceAction, csrfToken, { source, data, ...(schema.value === null ? {} : { schema: schema.value }) });
      if (id !== request.current) return;
      if (!result.ok) {
        setPreview({ state: 'failed', message: result.message, code: result.code, details: [], lastHtml: lastHtml.current });
        return;
      }
      const outcome: PreviewOutcome = result.data;
      if ('html' in outcome) {
        lastHtml.current = outcome.html;
        setPreview({ state: 'shown', html: outcome.html });
      } else {
        setPreview({ state: 'failed', ...outcome.error, lastHtml: lastHtml.current });
      }
    }, previewDelayMs);
    return () => clearTimeout(timer);
  }, [source, data, schema, csrfToken]);

  const sourceErrors = preview.state === 'failed' ? preview.details.filter((detail) => detail.field === 'source' && detail.line) : [];
  const marks = useMemo(() => sourceErrors.map((detail) => ({ line: detail.line!, column: detail.column })), [JSON.stringify(sourceErrors)]);
  const shownHtml = preview.state === 'shown' ? preview.html : preview.state === 'failed' ? preview.lastHtml : null;

  const save = async () => {
    if (!schema.ok) return;
    setSaving(true);
    setSaved(null);
    const result = await callAction(saveVersionAction, csrfToken, { templateId: template.id, source, schema: schema.value, sizes });
    setSaving(false);
    if (!result.ok) return setSaved({ ok: false, message: result.message, code: result.code, details: [] });
    if ('error' in result.data) return setSaved({ ok: false, ...result.data.error });
    setSaved({ ok: true, version: result.data.version });
    router.replace(`/dashboard/templates/${template.id}?saved=${result.data.version}`);
    router.refresh();
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="info">{template.inputMode === 'blank' ? `Canvas ${canvas ? `${canvas.width}×${canvas.height}` : 'without a size'}` : 'HTML document'}</Badge>
        <Badge>Editing version {version.version}{version.version !== template.latestVersion ? ` (latest is ${template.latestVersion})` : ''}</Badge>
        {dirty ? <Badge tone="warning">Unsaved changes</Badge> : null}
        <div className="ml-auto flex items-center gap-2">
          <Button onClick={save} disabled={saving || !dirty || !schema.ok || template.archived} aria-describedby={template.archived ? 'archived-note' : undefined}>
            {saving ? 'Saving…' : 'Save as new version'}
          </Button>
        </div>
      </div>
      {template.archived ? (
        <p id="archived-note" className="text-sm text-slate-600">
          This template is archived: restore it to save new versions.
        </p>
      ) : null}
      {saved?.ok ? <Notice>Saved as version {saved.version}.</Notice> : null}
      {saved && !saved.ok ? (
        <ErrorState title="The version was not saved" code={saved.code}>
          {saved.message}
          <DetailList details={saved.details} onPick={(line, column) => setFocusLine({ line, column, nonce: Date.now() })} />
        </ErrorState>
      ) : null}

      <div className="grid gap-4 xl:grid-cols-2">
        <section aria-labelledby="source-title" className="flex min-h-[32rem] flex-col rounded-lg border border-slate-200 bg-white">
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
            <h2 id="source-title" className="text-sm font-semibold">
              Source <span className="font-normal text-slate-500">(HTML with nunjucks)</span>
            </h2>
            {canvas ? (
              <SourceViewSwitch
                view={sourceView}
                onChange={(view) => {
                  setSourceView(view);
                  if (view === 'visual') setVisualOpened(true);
                }}
              />
            ) : null}
          </div>
          {canvas && visualOpened ? (
            <div className="min-h-0 flex-1" hidden={sourceView !== 'visual'} role="region" aria-label="Visual editor">
              <LazyVisualEditor csrfToken={csrfToken} source={source} onSourceChange={setSource} sizes={sizes} onSizesChange={setSizes} data={data} brandKit={brandKit} />
            </div>
          ) : null}
          <div className="min-h-0 flex-1 overflow-hidden" data-testid="source-editor" hidden={Boolean(canvas) && sourceView === 'visual'}>
            <LazyCodeEditor value={source} onChange={setSource} marks={marks} label="Template source" focusLine={focusLine} insertion={insertion} height="32rem" />
          </div>
        </section>

        <section aria-labelledby="preview-title" className="flex min-h-[32rem] flex-col rounded-lg border border-slate-200 bg-white">
          <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
            <h2 id="preview-title" className="text-sm font-semibold">
              Live preview
            </h2>
            <span role="status" aria-live="polite" className="text-xs text-slate-500" data-testid="preview-status">
              {preview.state === 'loading' ? 'Updating…' : preview.state === 'failed' ? 'Showing the last good preview' : preview.state === 'shown' ? 'Up to date' : ''}
            </span>
          </div>
          {preview.state === 'failed' ? (
            <div role="alert" className="border-b border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="preview-errors">
              <p className="font-medium">
                {preview.message} <span className="font-mono text-xs">({preview.code})</span>
              </p>
              <DetailList details={preview.details} onPick={(line, column) => setFocusLine({ line, column, nonce: Date.now() })} />
            </div>
          ) : null}
          {/* a scrolling region: focusable, so the keyboard can scroll a large canvas too */}
          <div tabIndex={0} role="region" aria-label="Preview area" className="max-h-[44rem] min-h-0 flex-1 overflow-auto bg-slate-100 p-3 focus-visible:outline-2 focus-visible:outline-indigo-600">
            {shownHtml !== null ? (
              // a document is laid out as an A4 page at 96 dpi (794 px wide) and scrolls inside its frame
              <FittedPreviewFrame html={shownHtml} title="Template preview" canvas={canvas ?? documentPage} className="mx-auto bg-white shadow" />
            ) : (
              <p className="py-16 text-center text-sm text-slate-500">{preview.state === 'failed' ? 'Fix the problem above to see a preview.' : 'Preparing the preview…'}</p>
            )}
          </div>
        </section>
      </div>

      <FontPicker onInsert={(text) => setInsertion({ text, nonce: Date.now() })} />

      <div className="grid gap-4 xl:grid-cols-2">
        <div className="flex min-h-80 flex-col gap-4 rounded-lg border border-slate-200 bg-white p-3">
          <DataPanel schema={schema.value} data={data} onChange={setData} />
        </div>
        <section aria-labelledby="schema-title" className="flex min-h-80 flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3">
          <h2 id="schema-title" className="text-sm font-semibold">
            JSON schema <span className="font-normal text-slate-500">(optional; the data is checked against it)</span>
          </h2>
          <label htmlFor="schema-text" className="sr-only">
            JSON schema
          </label>
          <textarea
            id="schema-text"
            value={schemaText}
            onChange={(event) => setSchemaText(event.target.value)}
            spellCheck={false}
            aria-invalid={schema.ok ? undefined : true}
            className="min-h-48 flex-1 resize-none rounded-md border border-slate-300 p-2 font-mono text-xs leading-5"
          />
          {!schema.ok ? (
            <p role="status" className="text-xs text-red-700">
              The schema is not valid JSON yet; the preview waits for it.
            </p>
          ) : null}
        </section>
      </div>

      {template.inputMode === 'blank' || canvas ? (
        <CanvasPanel csrfToken={csrfToken} source={source} data={data} canvas={canvas} sizes={sizes} onSizesChange={setSizes} />
      ) : null}

      <div className="grid gap-4 xl:grid-cols-2">
        <TestRenderPanel csrfToken={csrfToken} templateId={template.id} version={version.version} data={data} output={output} sizes={version.sizes} dirty={dirty} archived={template.archived} />
        <VersionPanel csrfToken={csrfToken} templateId={template.id} versions={versions} current={version.version} data={data} canvas={canvasOf(version.source)} />
      </div>
    </div>
  );
}

/** The service's details, with a way to jump to the line of each one that has a place. */
function DetailList({ details, onPick }: { details: FieldDetail[]; onPick: (line: number, column?: number) => void }) {
  if (details.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5">
      {details.map((detail, index) => (
        <li key={index}>
          {detail.line ? (
            <button type="button" className="underline decoration-dotted underline-offset-2" onClick={() => onPick(detail.line!, detail.column)}>
              Line {detail.line}
              {detail.column ? `, column ${detail.column}` : ''}
            </button>
          ) : (
            <span className="font-mono text-xs">{detail.field || 'document'}</span>
          )}
          : {detail.reason}
        </li>
      ))}
    </ul>
  );
}
