import { getPublicStats } from '@svc/core';
import type { ReactNode } from 'react';
import { serviceContext } from '../http/context.ts';
import { Badge, type BadgeTone } from '../dashboard/ui/badge.tsx';
import { LocalNumber } from '../dashboard/ui/local-format.tsx';

export type PublicStats = Awaited<ReturnType<typeof getPublicStats>>;

/** Each status in the customer's words, with what it means for their renders. */
export const statusWords: Record<PublicStats['status'], { label: string; meaning: string; tone: BadgeTone }> = {
  operational: { label: 'Operational', meaning: 'Renders are running normally.', tone: 'success' },
  degraded: { label: 'Degraded', meaning: 'Renders are running, but slower or failing more often than usual.', tone: 'warning' },
  downtime: { label: 'Down', meaning: 'Renders are not running at the moment.', tone: 'danger' },
  maintenance: { label: 'Maintenance', meaning: 'Planned maintenance is under way.', tone: 'info' },
  unavailable: { label: 'Unknown', meaning: 'The status cannot be measured right now.', tone: 'neutral' },
};

/**
 * The service's public figures: what GET /v1/public-stats answers, from the same use-case
 * (and its five-minute cache), read on the server as every page reads the core.
 */
export function readPublicStats(): Promise<PublicStats> {
  return getPublicStats(serviceContext());
}

export function PublicStatsList({ stats }: { stats: PublicStats }) {
  const status = statusWords[stats.status];
  return (
    <dl className="grid gap-4 sm:grid-cols-3" data-testid="public-stats">
      <Figure label="Status" testId="stat-status">
        <Badge tone={status.tone}>
          {status.label}
        </Badge>
      </Figure>
      <Figure label="Renders served" testId="stat-renders-served">
        <LocalNumber value={stats.rendersServed} />
      </Figure>
      <Figure label="Uptime" testId="stat-uptime">
        {stats.uptimePercent === null ? (
          <span className="text-base font-medium text-slate-600">Still measuring</span>
        ) : (
          <>
            <LocalNumber value={stats.uptimePercent / 100} options={{ style: 'percent', maximumFractionDigits: 3 }} />
            <span className="ml-1 text-sm font-normal text-slate-600">
              over {stats.uptimeDays} {stats.uptimeDays === 1 ? 'day' : 'days'}
            </span>
          </>
        )}
      </Figure>
    </dl>
  );
}

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">{children}</dd>
    </div>
  );
}
