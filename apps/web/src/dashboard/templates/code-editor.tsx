'use client';

import { html } from '@codemirror/lang-html';
import { jinja } from '@codemirror/lang-jinja';
import { type Extension, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView } from '@codemirror/view';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { useEffect, useMemo, useRef } from 'react';

/** A place in the source the service reported (1-based, as the API answers). */
export interface SourceMark {
  line: number;
  column?: number;
}

const setMarks = StateEffect.define<SourceMark[]>();
const errorLine = Decoration.line({ attributes: { class: 'cm-svc-error-line' } });
const errorColumn = Decoration.mark({ attributes: { class: 'cm-svc-error-column' } });

/** Decorations for the reported lines (and the character at the column), rebuilt when marks change. */
const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, transaction) {
    for (const effect of transaction.effects) {
      if (!effect.is(setMarks)) continue;
      const doc = transaction.state.doc;
      const builder = new RangeSetBuilder<Decoration>();
      const sorted = [...effect.value].filter((mark) => mark.line >= 1 && mark.line <= doc.lines).sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
      let lastLine = 0;
      for (const mark of sorted) {
        const line = doc.line(mark.line);
        if (mark.line !== lastLine) builder.add(line.from, line.from, errorLine);
        lastLine = mark.line;
        if (mark.column && mark.column <= line.length) {
          const from = line.from + mark.column - 1;
          builder.add(from, from + 1, errorColumn);
        }
      }
      return builder.finish();
    }
    return decorations.map(transaction.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  '&': { fontSize: '13px', height: '100%' },
  '.cm-scroller': { fontFamily: '"DejaVu Sans Mono", "Liberation Mono", ui-monospace, monospace' },
  // the cursor's line is marked by a bar at its start: any tint behind it would take the tag
  // names' colour under the contrast text needs
  '.cm-activeLine': { backgroundColor: 'transparent !important', boxShadow: 'inset 3px 0 0 #a5b4fc' },
  '.cm-svc-error-line, .cm-activeLine.cm-svc-error-line': { backgroundColor: 'rgba(220, 38, 38, 0.12) !important' },
  '.cm-svc-error-column': { textDecoration: 'underline wavy #dc2626', backgroundColor: 'rgba(220, 38, 38, 0.25)' },
});

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** places to mark as errors */
  marks?: SourceMark[];
  /** the accessible name of the editing area */
  label: string;
  /** where to move the cursor (a line the user chose in the error list) */
  focusLine?: { line: number; column?: number; nonce: number } | null;
  /** text to put in place of the selection (at the cursor), once per nonce */
  insertion?: { text: string; nonce: number } | null;
  height?: string;
}

/** The template source editor: HTML with nunjucks (jinja) syntax, the service's errors marked in place. */
export default function CodeEditor({ value, onChange, marks = [], label, focusLine, insertion, height = '100%' }: CodeEditorProps) {
  const ref = useRef<ReactCodeMirrorRef>(null);
  const extensions = useMemo<Extension[]>(
    () => [
      jinja({ base: html() }),
      marksField,
      theme,
      EditorView.lineWrapping,
      // an explicit tab stop: the scroller's keyboard access is the content itself (axe looks for one)
      EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
    ],
    [label],
  );

  useEffect(() => {
    ref.current?.view?.dispatch({ effects: setMarks.of(marks) });
  }, [marks]);

  useEffect(() => {
    const view = ref.current?.view;
    if (!view || !focusLine) return;
    const doc = view.state.doc;
    const line = doc.line(Math.min(Math.max(focusLine.line, 1), doc.lines));
    const anchor = line.from + Math.min(Math.max((focusLine.column ?? 1) - 1, 0), line.length);
    view.dispatch({ selection: { anchor }, scrollIntoView: true });
    view.focus();
  }, [focusLine]);

  useEffect(() => {
    const view = ref.current?.view;
    if (!view || !insertion) return;
    view.dispatch(view.state.replaceSelection(insertion.text), { scrollIntoView: true });
    view.focus();
  }, [insertion]);

  return (
    <CodeMirror
      ref={ref}
      value={value}
      height={height}
      className="h-full"
      extensions={extensions}
      onChange={onChange}
      onCreateEditor={(view) => view.dispatch({ effects: setMarks.of(marks) })}
      basicSetup={{ foldGutter: false, highlightActiveLine: true }}
      // Tab moves focus on, as everywhere else on the page (keyboard users are not trapped)
      indentWithTab={false}
    />
  );
}
