'use client';
// Numbers and dates in the browser's locale. The server cannot know it, so the server's HTML
// (and hydration) shows a locale-neutral form, replaced by the browser's own once mounted.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};
/** True in the browser after hydration, false on the server and during hydration. */
function useMounted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

export function LocalNumber({ value, options }: { value: number; options?: Intl.NumberFormatOptions }) {
  const mounted = useMounted();
  return <span data-value={value}>{mounted ? new Intl.NumberFormat(undefined, options).format(value) : String(value)}</span>;
}

export type DateStyle = 'date' | 'datetime' | 'time' | 'day';

const styles: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  datetime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'medium' },
  day: { month: 'short', day: 'numeric', timeZone: 'UTC' },
};

/** A point in time (ISO string or Date), in the browser's locale and time zone. */
export function LocalDate({ value, style = 'datetime' }: { value: string | Date; style?: DateStyle }) {
  const mounted = useMounted();
  const date = typeof value === 'string' ? new Date(value) : value;
  const iso = date.toISOString();
  const neutral = style === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  return (
    <time dateTime={iso} title={iso}>
      {mounted ? new Intl.DateTimeFormat(undefined, styles[style]).format(date) : neutral}
    </time>
  );
}
