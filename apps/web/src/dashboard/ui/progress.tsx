import { cn } from './cn.ts';

export interface ProgressBarProps {
  /** Done so far, in the same unit as max. */
  value: number;
  max: number;
  /** What the bar measures, read by screen readers ("Members rendered"). */
  label: string;
  tone?: 'info' | 'success' | 'warning' | 'danger';
  className?: string;
}

const tones = { info: 'bg-indigo-600', success: 'bg-green-600', warning: 'bg-amber-500', danger: 'bg-red-600' };

/** A horizontal bar; a max of 0 shows an empty bar. */
export function ProgressBar({ value, max, label, tone = 'info', className }: ProgressBarProps) {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className={cn('h-full rounded-full', tones[tone])} style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}
