'use client';

import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { cn } from '../ui/cn.ts';

export interface WorkspaceTab {
  id: string;
  label: string;
  /** a short mark after the label, such as a count */
  mark?: ReactNode;
  content: ReactNode;
}

export interface WorkspaceTabsProps {
  /** the accessible name of the tab list */
  label: string;
  tabs: WorkspaceTab[];
  selected: string;
  onSelect: (id: string) => void;
  className?: string;
}

/**
 * The side panel's tabs (the WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs).
 * Every panel stays mounted while hidden, so a comparison, a test render or a half-typed schema
 * is still there when its tab is chosen again.
 */
export function WorkspaceTabs({ label, tabs, selected, onSelect, className }: WorkspaceTabsProps) {
  const id = useId();
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});
  const current = tabs.some((tab) => tab.id === selected) ? selected : tabs[0]?.id;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === current);
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab.id);
    buttons.current[tab.id]?.focus();
  };

  return (
    <div className={cn('flex min-h-0 flex-col', className)}>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex flex-wrap gap-1 border-b border-slate-200 px-2 pt-2">
        {tabs.map((tab) => {
          const active = tab.id === current;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                buttons.current[tab.id] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-${tab.id}-tab`}
              aria-selected={active}
              aria-controls={`${id}-${tab.id}-panel`}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(tab.id)}
              className={cn(
                '-mb-px rounded-t-md border px-2.5 py-1.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
                active ? 'border-slate-200 border-b-white bg-white text-indigo-800' : 'border-transparent text-slate-700 hover:bg-slate-100',
              )}
            >
              {tab.label}
              {tab.mark}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${id}-${tab.id}-panel`}
          aria-labelledby={`${id}-${tab.id}-tab`}
          hidden={tab.id !== current}
          // a panel that scrolls by itself: focusable, so the keyboard reaches all of it
          tabIndex={0}
          className="min-h-0 flex-1 overflow-auto p-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
