// Undo and redo over the visual editor's source edits. An entry holds the text before and after
// one edit of one source (the template's, or a saved size's); it applies only while that source
// still reads as the entry left it, so a change made in the code view is never undone blindly.

export interface HistoryEntry {
  /** 'original' or a saved size's id */
  target: string;
  before: string;
  after: string;
}

export interface History {
  past: HistoryEntry[];
  future: HistoryEntry[];
}

export const emptyHistory: History = { past: [], future: [] };

/** At most this many edits are kept. */
const depth = 200;

export function recordEdit(history: History, entry: HistoryEntry): History {
  return { past: [...history.past, entry].slice(-depth), future: [] };
}

/** The step back (or forward) that applies to the current text of its source, or null when the history no longer matches. */
export function undoStep(history: History, textOf: (target: string) => string | null): { entry: HistoryEntry; history: History } | null {
  const entry = history.past[history.past.length - 1];
  if (!entry || textOf(entry.target) !== entry.after) return null;
  return { entry, history: { past: history.past.slice(0, -1), future: [...history.future, entry] } };
}

export function redoStep(history: History, textOf: (target: string) => string | null): { entry: HistoryEntry; history: History } | null {
  const entry = history.future[history.future.length - 1];
  if (!entry || textOf(entry.target) !== entry.before) return null;
  return { entry, history: { past: [...history.past, entry], future: history.future.slice(0, -1) } };
}
