'use client';

import type { FieldDetail, SizeVariant } from '@svc/contracts';
import { useRouter } from 'next/navigation';
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { ErrorState } from '../ui/states.tsx';
import { type PreviewOutcome, previewSourceAction, saveVersionAction } from './actions.ts';
import { callAction } from './call-action.ts';
import { CanvasPanel } from './canvas-panel.tsx';
import { DataPanel } from './data-panel.tsx';
import { DetailList } from './detail-list.tsx';
import { FontPicker } from './font-picker.tsx';
import { PreviewPane, type PreviewState, type RenderedTest } from './preview-pane.tsx';
import { SchemaPanel } from './schema-panel.tsx';
import { canvasOf } from './source-facts.ts';
import { SourcePane } from './source-pane.tsx';
import { TestRenderPanel, type OutputChoice } from './test-render-panel.tsx';
import { LazyVisualEditor } from './lazy.tsx';
import { VersionPanel } from './version-panel.tsx';
import type { VisualBrandKit } from './visual/inspector.tsx';
import { SourceViewSwitch } from './visual/source-view-switch.tsx';
import { WorkspaceTabs } from './workspace-tabs.tsx';

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
  /** the template's name and tags form, shown in the side panel's Details tab */
  details?: ReactNode;
  /** The brand kit the version's source names (svc-brand-kit): its colours and fonts in the visual editor. */
  brandKit?: VisualBrandKit | null;
}

/** Waiting this long after the last keystroke before asking for a preview. */
const previewDelayMs = 400;


type SaveOutcome = { ok: true; version: number } | { ok: false; message: string; code: string; details: FieldDetail[] };

/**
 * The editor page's client side, a workspace that fits the window: the source and the live
 * preview side by side at full height, and a side panel whose tabs hold the data, the schema,
 * the canvas sizes, the versions, the test render, the fonts and the details. Saving keeps
 * the workspace as it stands (cursor, scroll, data, open tab) and its notice stays in sight.
 */
export function TemplateEditor({ csrfToken, template, version, versions, initialData, output, justSaved = false, details, brandKit = null }: TemplateEditorProps) {
  const router = useRouter();
  const [source, setSource] = useState(version.source);
  const [schemaText, setSchemaText] = useState(schemaTextOf(version.schema));
  const [data, setData] = useState<Record<string, unknown>>(initialData);
  const [sizes, setSizes] = useState<SizeVariant[]>(version.sizes);
  const [preview, setPreview] = useState<PreviewState>({ state: 'idle' });
  const [focusLine, setFocusLine] = useState<{ line: number; column?: number; nonce: number } | null>(null);
  const [insertion, setInsertion] = useState<{ text: string; nonce: number } | null>(null);
  const [saving, setSaving] = useState(false);
  // canvas templates can be edited visually; once opened the visual view stays mounted, so its undo history survives a look at the code
  const [sourceView, setSourceView] = useState<'visual' | 'code'>('code');
  const [visualOpened, setVisualOpened] = useState(false);
  const [saved, setSaved] = useState<SaveOutcome | null>(justSaved ? { ok: true, version: version.version } : null);
  const [rendered, setRendered] = useState<RenderedTest | null>(null);
  const [tab, setTab] = useState('data');
  const [openedVersion, setOpenedVersion] = useState(version.version);
  const lastHtml = useRef<string | null>(null);
  const request = useRef(0);
  const dataKey = `svc-template-data:${template.id}`;

  // The page hands over a new version after a save (and on any other navigation). The one just
  // saved from here is what the editor already holds, so it stays as it is; any other opens anew.
  if (openedVersion !== version.version) {
    setOpenedVersion(version.version);
    setSizes(version.sizes);
    if (!(saved?.ok && saved.version === version.version)) {
      setSource(version.source);
      setSchemaText(schemaTextOf(version.schema));
      setSaved(null);
    }
  }

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
  const canSave = !saving && dirty && schema.ok && !template.archived;

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
  const pickLine = (line: number, column?: number) => setFocusLine({ line, column, nonce: Date.now() });

  const save = async () => {
    if (!canSave || !schema.ok) return;
    setSaving(true);
    const result = await callAction(saveVersionAction, csrfToken, { templateId: template.id, source, schema: schema.value, sizes });
    setSaving(false);
    if (!result.ok) return setSaved({ ok: false, message: result.message, code: result.code, details: [] });
    if ('error' in result.data) return setSaved({ ok: false, ...result.data.error });
    setSaved({ ok: true, version: result.data.version });
    // the address names the saved version (a reload shows it and its notice); the page stays where it is
    router.replace(`/dashboard/templates/${template.id}?saved=${result.data.version}`, { scroll: false });
  };

  // Ctrl+S (Cmd+S) saves from anywhere in the workspace, the source editor included
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's') return;
    event.preventDefault();
    void save();
  };

  const tabs = [
    { id: 'data', label: 'Data', content: <DataPanel schema={schema.value} data={data} onChange={setData} /> },
    { id: 'schema', label: 'Schema', mark: schema.ok ? null : <span className="ml-1 text-red-700">(not valid)</span>, content: <SchemaPanel text={schemaText} onChange={setSchemaText} valid={schema.ok} /> },
    ...(template.inputMode === 'blank' || canvas
      ? [{ id: 'sizes', label: 'Sizes', content: <CanvasPanel csrfToken={csrfToken} source={source} data={data} canvas={canvas} sizes={sizes} onSizesChange={setSizes} /> }]
      : []),
    {
      id: 'versions',
      label: 'Versions',
      content: <VersionPanel csrfToken={csrfToken} templateId={template.id} versions={versions} current={version.version} data={data} canvas={canvasOf(version.source)} />,
    },
    {
      id: 'render',
      label: 'Test render',
      content: (
        <TestRenderPanel
          csrfToken={csrfToken}
          templateId={template.id}
          version={version.version}
          data={data}
          output={output}
          sizes={version.sizes}
          dirty={dirty}
          archived={template.archived}
          onRendered={(done) => setRendered({ ...done, version: version.version })}
        />
      ),
    },
    { id: 'fonts', label: 'Fonts', content: <FontPicker onInsert={(text) => setInsertion({ text, nonce: Date.now() })} /> },
    ...(details ? [{ id: 'details', label: 'Details', content: details }] : []),
  ];

  return (
    <div data-workspace className="flex min-h-0 flex-1 flex-col gap-2" onKeyDown={onKeyDown}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="info">{template.inputMode === 'blank' ? `Canvas ${canvas ? `${canvas.width}×${canvas.height}` : 'without a size'}` : 'HTML document'}</Badge>
        <Badge>
          Editing version {version.version}
          {version.version !== template.latestVersion ? ` (latest is ${template.latestVersion})` : ''}
        </Badge>
        {dirty ? <Badge tone="warning">Unsaved changes</Badge> : null}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {saved?.ok ? (
            <p role="status" className="rounded-md border border-green-300 bg-green-50 px-3 py-1.5 text-sm text-green-900">
              Saved as version {saved.version}.
            </p>
          ) : null}
          {template.archived ? (
            <p id="archived-note" className="text-sm text-slate-600">
              This template is archived: restore it to save new versions.
            </p>
          ) : null}
          <Button onClick={save} disabled={!canSave} aria-describedby={template.archived ? 'archived-note' : undefined} aria-keyshortcuts="Control+S Meta+S" title="Save as new version (Ctrl+S)">
            {saving ? 'Saving…' : 'Save as new version'}
          </Button>
        </div>
      </div>
      {saved && !saved.ok ? (
        <ErrorState title="The version was not saved" code={saved.code} className="max-h-40 overflow-auto">
          {saved.message}
          <DetailList details={saved.details} onPick={pickLine} />
        </ErrorState>
      ) : null}

      <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-2 xl:grid-cols-[minmax(0,1.25fr)_minmax(0,1fr)_22rem]">
        <SourcePane
          source={source}
          onSourceChange={setSource}
          marks={marks}
          focusLine={focusLine}
          insertion={insertion}
          tools={
            canvas ? (
              <SourceViewSwitch
                view={sourceView}
                onChange={(view) => {
                  setSourceView(view);
                  if (view === 'visual') setVisualOpened(true);
                }}
              />
            ) : null
          }
          codeHidden={Boolean(canvas) && sourceView === 'visual'}
        >
          {canvas && visualOpened ? (
            <div className="absolute inset-0 overflow-auto" hidden={sourceView !== 'visual'} role="region" aria-label="Visual editor">
              <LazyVisualEditor csrfToken={csrfToken} source={source} onSourceChange={setSource} sizes={sizes} onSizesChange={setSizes} data={data} brandKit={brandKit} />
            </div>
          ) : null}
        </SourcePane>
        <PreviewPane preview={preview} canvas={canvas} rendered={rendered} onPickLine={pickLine} />
        <aside aria-label="Data, schema, versions and test render" className="flex min-h-[28rem] min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white lg:col-span-2 xl:col-span-1 xl:min-h-0">
          <WorkspaceTabs label="Template tools" tabs={tabs} selected={tab} onSelect={setTab} className="flex-1" />
        </aside>
      </div>
    </div>
  );
}

const schemaTextOf = (schema: unknown) => (schema === null ? '' : JSON.stringify(schema, null, 2));
