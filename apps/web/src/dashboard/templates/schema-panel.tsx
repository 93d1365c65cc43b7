'use client';

export interface SchemaPanelProps {
  text: string;
  onChange: (text: string) => void;
  /** whether the text is JSON (or empty) */
  valid: boolean;
}

/** The version's JSON schema as text: optional; the data is checked against it, and the data form is made from it. */
export function SchemaPanel({ text, onChange, valid }: SchemaPanelProps) {
  return (
    <section aria-labelledby="schema-title" className="flex h-full min-h-80 flex-col gap-2">
      <h2 id="schema-title" className="text-sm font-semibold">
        JSON schema <span className="font-normal text-slate-600">(optional)</span>
      </h2>
      <p id="schema-hint" className="text-xs text-slate-600">
        The data is checked against it. Each property&apos;s <code>title</code> and <code>description</code> label the data form.
      </p>
      <label htmlFor="schema-text" className="sr-only">
        JSON schema
      </label>
      <textarea
        id="schema-text"
        value={text}
        onChange={(event) => onChange(event.target.value)}
        spellCheck={false}
        aria-invalid={valid ? undefined : true}
        aria-describedby="schema-hint"
        className="min-h-48 flex-1 resize-none rounded-md border border-slate-300 p-2 font-mono text-xs leading-5"
      />
      {!valid ? (
        <p role="status" className="text-xs text-red-700">
          The schema is not valid JSON yet; the preview waits for it.
        </p>
      ) : null}
    </section>
  );
}
