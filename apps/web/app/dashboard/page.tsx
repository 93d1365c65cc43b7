import type { CreditBucket } from '@svc/db';
import { getFirstSteps, getUsageOverview, planTerms, showAccount } from '@svc/core';
import Link from 'next/link';
import { FirstStepsCard } from '../../src/dashboard/first-steps.tsx';
import { monthlyAllowance } from '../../src/dashboard/monthly-credits.tsx';
import { RenderChart } from '../../src/dashboard/render-chart.tsx';
import { requireSession } from '../../src/dashboard/session.ts';
import { Badge } from '../../src/dashboard/ui/badge.tsx';
import { buttonClass } from '../../src/dashboard/ui/button.tsx';
import { Card, CardHeader, PageHeader } from '../../src/dashboard/ui/card.tsx';
import { LocalDate, LocalNumber } from '../../src/dashboard/ui/local-format.tsx';
import { ProgressBar } from '../../src/dashboard/ui/progress.tsx';
import { EmptyState } from '../../src/dashboard/ui/states.tsx';
import { Table, Td, Th } from '../../src/dashboard/ui/table.tsx';

export const metadata = { title: 'Overview' };

// the monthly buckets show only for plans that refill them (or while they still hold credits)
const buckets: { bucket: CreditBucket; label: string; note: string; monthly: boolean }[] = [
  { bucket: 'subscription', label: 'Subscription', note: 'Refilled on the 1st of each month', monthly: true },
  { bucket: 'free_monthly', label: 'Free monthly', note: 'Refilled on the 1st of each month', monthly: true },
  { bucket: 'trial', label: 'Trial', note: 'Spent after monthly credits', monthly: false },
  { bucket: 'pack', label: 'Packs', note: 'Never lapse', monthly: false },
];

export default async function Overview() {
  const { ctx, accountId } = await requireSession();
  const [account, usage, firstSteps] = await Promise.all([showAccount(ctx, accountId), getUsageOverview(ctx, { accountId }), getFirstSteps(ctx, { accountId })]);
  const available = Object.values(account.balances).reduce((sum, value) => sum + value, 0);
  const allowance = monthlyAllowance(account);
  const shownBuckets = buckets.filter(({ bucket, monthly }) => !monthly || allowance?.bucket === bucket || account.balances[bucket] > 0);
  const overageAllowed = planTerms[account.plan].overage;
  return (
    <>
      <PageHeader title="Overview" description="Credits, usage this month and the last 30 days of renders." />
      <div className="grid gap-6">
        <FirstStepsCard steps={firstSteps} />

        <Card aria-labelledby="credits-heading">
          <CardHeader id="credits-heading" title="Credits" description={<>Plan: <Badge tone="info">{account.plan}</Badge></>} />
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
            <Stat label="Available" value={available} strong />
            {shownBuckets.map(({ bucket, label, note }) =>
              allowance?.bucket === bucket ? (
                <Stat
                  key={bucket}
                  label={label}
                  value={account.balances[bucket]}
                  // the allowance as the Account page states it; free credits wait for a confirmed address
                  of={allowance.awaitsEmail ? undefined : allowance.credits}
                  note={allowance.awaitsEmail ? `${allowance.credits} each month once your email address is confirmed` : note}
                  testId={`balance-${bucket}`}
                />
              ) : (
                <Stat key={bucket} label={label} value={account.balances[bucket]} note={note} testId={`balance-${bucket}`} />
              ),
            )}
            <Stat label="Reserved" value={account.reserved} note="Held for jobs in progress" testId="reserved" />
          </dl>
        </Card>

        <Card aria-labelledby="overage-heading">
          <CardHeader
            id="overage-heading"
            title="Overage this month"
            description={
              overageAllowed ? (
                <>
                  <LocalNumber value={account.overageThisMonth} /> credits beyond the prepaid balance in {usage.period} (UTC), all keys together.
                </>
              ) : (
                'Your plan has no overage: work stops when the credits run out.'
              )
            }
            actions={
              <Link href="/dashboard/developers" className={buttonClass('secondary')}>
                Set key caps
              </Link>
            }
          />
          {overageAllowed ? (
            usage.overageByKey.length === 0 ? (
              <EmptyState title="No API keys yet">Create a key on the Developers page to use the API.</EmptyState>
            ) : (
              <ul className="space-y-4">
                {usage.overageByKey.map((key) => (
                  <li key={key.keyId}>
                    <div className="mb-1 flex flex-wrap justify-between gap-2 text-sm">
                      <span className="font-medium">
                        {key.name} <span className="font-mono text-xs text-slate-600">{key.displayPrefix}…</span>
                      </span>
                      <span className="text-slate-700">
                        <LocalNumber value={key.used} /> {key.cap === null ? 'used, no cap' : <>of <LocalNumber value={key.cap} /> cap</>}
                      </span>
                    </div>
                    {key.cap !== null ? (
                      <ProgressBar value={key.used} max={key.cap} label={`Overage of ${key.name} against its cap`} tone={key.used >= key.cap ? 'danger' : key.used >= key.cap * 0.8 ? 'warning' : 'info'} />
                    ) : null}
                  </li>
                ))}
              </ul>
            )
          ) : null}
        </Card>

        <Card aria-labelledby="renders-heading">
          <CardHeader id="renders-heading" title="Renders per day" description="The last 30 days." />
          <RenderChart days={usage.renderDays} />
        </Card>

        <Card aria-labelledby="failures-heading">
          <CardHeader
            id="failures-heading"
            title="Recent failures"
            actions={
              <Link href="/dashboard/renders?status=failed" className={buttonClass('secondary')}>
                All renders
              </Link>
            }
          />
          {usage.failures.length === 0 ? (
            <EmptyState title="No failed renders">Renders that fail show here with their error code.</EmptyState>
          ) : (
            <Table caption="Recent failed renders">
              <thead>
                <tr>
                  <Th>Render</Th>
                  <Th>Error code</Th>
                  <Th>Finished</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {usage.failures.map((failure) => (
                  <tr key={failure.id}>
                    <Td>
                      <span className="font-mono text-xs">{failure.id}</span>
                      <span className="block text-xs text-slate-600">
                        {failure.kind.toUpperCase()} · {failure.filename}
                      </span>
                    </Td>
                    <Td>
                      <Badge tone="danger">{failure.errorCode ?? 'unknown'}</Badge>
                    </Td>
                    <Td>
                      <LocalDate value={failure.finishedAt ?? failure.createdAt} />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card>
      </div>
    </>
  );
}

interface StatProps {
  label: string;
  value: number;
  /** A monthly allowance the value is part of ("0 of 25,000 a month"). */
  of?: number;
  note?: string;
  strong?: boolean;
  testId?: string;
}

function Stat({ label, value, of, note, strong, testId }: StatProps) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className={strong ? 'text-2xl font-semibold text-slate-900' : 'text-xl font-semibold text-slate-800'} data-testid={testId}>
        <LocalNumber value={value} />
        {of !== undefined ? (
          <span className="text-sm font-medium text-slate-600" data-testid={testId && `${testId}-allowance`}>
            {' '}
            of <LocalNumber value={of} /> a month
          </span>
        ) : null}
      </dd>
      {note ? <dd className="text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}
