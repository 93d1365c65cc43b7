import { Badge } from '../../../src/dashboard/ui/badge.tsx';
import { PublicStatsList, readPublicStats, statusWords } from '../../../src/site/public-stats.tsx';

export const metadata = { title: 'Status · Rendering Service' };

// The service's status in words, with the figures behind it; the same as GET /v1/public-stats.
export default async function Status() {
  const stats = await readPublicStats();
  const words = statusWords[stats.status];
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-12">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Status</h1>
        <p className="mt-3 flex flex-wrap items-center gap-3 text-lg text-slate-800" data-testid="status-summary">
          <Badge tone={words.tone}>
            {words.label}
          </Badge>
          {words.meaning}
        </p>
      </div>
      <PublicStatsList stats={stats} />
      <div className="max-w-3xl space-y-2 text-sm text-slate-700">
        <p>
          Uptime is the share of minutes in the last 90 days in which both the API and the renderers were running. The figures are measured by the
          service itself and refreshed every five minutes.
        </p>
        <p>
          For your own monitoring, the same figures are available as JSON at{' '}
          <a href="/v1/public-stats" className="font-mono font-medium text-indigo-700 underline hover:text-indigo-900">
            /v1/public-stats
          </a>
          , without a key.
        </p>
      </div>
    </div>
  );
}
