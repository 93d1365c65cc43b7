'use client';
// A menu button (WAI-ARIA menu button pattern): Enter, Space or the arrow keys open it with
// the focus on an item, the arrow keys, Home and End move between items, Escape closes it and
// gives the focus back to the button, Tab or a click elsewhere closes it.
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { cn } from './cn.ts';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  /** A danger item says so in its colour (its words say it too). */
  tone?: 'danger';
  disabled?: boolean;
}

export function MenuButton({ label, items }: { label: string; items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  // which item takes the focus once the menu shows: first or last
  const focusOnOpen = useRef<'first' | 'last'>('first');

  const itemsOf = () => Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([disabled])') ?? []);
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const items = itemsOf();
    (focusOnOpen.current === 'first' ? items[0] : items[items.length - 1])?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const openWith = (focus: 'first' | 'last') => {
    focusOnOpen.current = focus;
    setOpen(true);
  };

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openWith(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = itemsOf();
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (index: number) => items[(index + items.length) % items.length]?.focus();
    if (event.key === 'Escape') close(true);
    else if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Tab') return setOpen(false);
    else return;
    event.preventDefault();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={label}
        onClick={() => (open ? close(false) : openWith('first'))}
        onKeyDown={onButtonKey}
        className="inline-flex size-9 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
          <circle cx="4" cy="10" r="1.6" />
          <circle cx="10" cy="10" r="1.6" />
          <circle cx="16" cy="10" r="1.6" />
        </svg>
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-10 mt-1 min-w-40 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              disabled={item.disabled}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
              className={cn(
                'block w-full px-3 py-2 text-left text-sm focus-visible:outline-none disabled:text-slate-400',
                item.tone === 'danger' ? 'text-red-800 hover:bg-red-50 focus:bg-red-50' : 'text-slate-800 hover:bg-slate-100 focus:bg-slate-100',
              )}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
