'use client';

import { useEffect, useId, useState } from 'react';
import { LazySchemaForm } from './lazy.tsx';

export interface DataPanelProps {
  /** the version's JSON schema, or null */
  schema: unknown;
  data: Record<string, unknown>;
  onChange: (data: Record<string, unknown>) => void;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The data the preview evaluates with: as JSON text, or as a form generated from the schema.
 * The text keeps what the user typed while it is not valid JSON, and says why.
 */
export function DataPanel({ schema, data, onChange }: DataPanelProps) {
  const hasForm = isObject(schema) && schema.type === 'object';
  const [mode, setMode] = useState<'json' | 'form'>(hasForm ? 'form' : 'json');
  const [text, setText] = useState(() => JSON.stringify(data, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  // a change from the form (or a new version) rewrites the text, unless the text is mid-edit
  useEffect(() => {
    if (problem) return;
    setText((current) => {
      try {
        if (JSON.stringify(JSON.parse(current)) === JSON.stringify(data)) return current;
      } catch {
        // fall through
      }
      return JSON.stringify(data, null, 2);
    });
  }, [data, problem]);

  const onText = (value: string) => {
    setText(value);
    try {
      const parsed: unknown = JSON.parse(value);
      if (!isObject(parsed)) {
        setProblem('Data must be one JSON object, such as {"name": "Ann"}.');
        return;
      }
      setProblem(null);
      onChange(parsed);
    } catch (error) {
      setProblem(`Not valid JSON yet: ${error instanceof Error ? error.message : 'check the syntax'}.`);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex h-full flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="text-sm font-semibold">
          Data
        </h2>
        {hasForm ? (
          <div role="group" aria-label="Data view" className="inline-flex rounded-md border border-slate-300 text-xs">
            {(['form', 'json'] as const).map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={mode === value}
                onClick={() => setMode(value)}
                className={`px-2.5 py-1 ${mode === value ? 'bg-slate-900 text-white' : 'bg-white text-slate-700'} first:rounded-l-md last:rounded-r-md`}
              >
                {value === 'form' ? 'Form' : 'JSON'}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      {mode === 'form' && hasForm ? (
        <div className="min-h-0 flex-1 overflow-auto rounded-md border border-slate-200 p-3 text-sm">
          <LazySchemaForm schema={schema} data={data} onChange={onChange} />
        </div>
      ) : (
        <>
          <label htmlFor={`${id}-json`} className="sr-only">
            Data as JSON
          </label>
          <textarea
            id={`${id}-json`}
            value={text}
            onChange={(event) => onText(event.target.value)}
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className="min-h-48 flex-1 resize-none rounded-md border border-slate-300 p-2 font-mono text-xs leading-5"
          />
          {problem ? (
            <p id={`${id}-problem`} role="status" className="text-xs text-red-700">
              {problem}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
