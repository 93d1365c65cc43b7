import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/** What a list shows when it holds nothing yet: say so, and offer the first step. */
export function EmptyState({ title, children, action, className }: { title: string; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cn('rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center', className)}>
      <p className="text-sm font-medium text-slate-900">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}

/** A failure the user should notice: announced to screen readers as an alert. */
export function ErrorState({ title = 'Something went wrong', children, code, className }: { title?: string; children?: ReactNode; code?: string; className?: string }) {
  return (
    <div role="alert" className={cn('rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900', className)}>
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-1">{children}</div> : null}
      {code ? <p className="mt-1 font-mono text-xs text-red-800">Code: {code}</p> : null}
    </div>
  );
}

/** A confirmation of something done, announced politely. */
export function Notice({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div role="status" className={cn('rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900', className)}>
      {children}
    </div>
  );
}

/** A placeholder block while a section loads (route loading.tsx files use it). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} />;
}

/** A whole page while it loads. */
export function LoadingPage({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="space-y-4">
      <span className="sr-only">{label}…</span>
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}
