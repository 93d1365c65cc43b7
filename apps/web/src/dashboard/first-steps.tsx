// The Overview's first-steps list: what a new account is shown to try, each ticked off once
// done, the whole list gone once all are.
import type { FirstSteps } from '@svc/core';
import Link from 'next/link';
import { Badge } from './ui/badge.tsx';
import { Card, CardHeader } from './ui/card.tsx';

const steps: { done: keyof FirstSteps; title: string; href: string; text: string }[] = [
  {
    done: 'template',
    title: 'Make a template from the gallery',
    href: '/dashboard/templates/gallery',
    text: 'Copy a starter into your account; you can change it in the editor.',
  },
  {
    done: 'templateRender',
    title: 'Render it',
    href: '/dashboard/templates',
    text: 'Open your template and render it under Test render, or through the API with its id.',
  },
  {
    done: 'key',
    title: 'Create an API key',
    href: '/dashboard/developers#keys-heading',
    text: 'One for each app or environment, so you can revoke one without stopping the others.',
  },
  {
    done: 'webhook',
    title: 'Add a webhook',
    href: '/dashboard/developers#webhooks-heading',
    text: 'Hear about finished and failed renders at an address of your own.',
  },
];

export function FirstStepsCard({ steps: progress }: { steps: FirstSteps }) {
  const left = steps.filter((step) => !progress[step.done]).length;
  if (left === 0) return null;
  return (
    <Card aria-labelledby="first-steps-heading">
      <CardHeader id="first-steps-heading" title="First steps" description={`${steps.length - left} of ${steps.length} done. This list goes away once all are.`} />
      <ol className="grid gap-3 sm:grid-cols-2" aria-label="First steps">
        {steps.map((step, index) => {
          const done = progress[step.done];
          return (
            <li key={step.done} className="flex gap-3 rounded-md border border-slate-200 p-3" data-testid="first-step" data-done={done}>
              <span
                aria-hidden="true"
                className={
                  done
                    ? 'flex size-6 shrink-0 items-center justify-center rounded-full bg-green-600 text-xs font-semibold text-white'
                    : 'flex size-6 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-xs font-semibold text-indigo-800 ring-1 ring-indigo-600/30'
                }
              >
                {done ? '✓' : index + 1}
              </span>
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                  {done ? (
                    <span className="text-slate-600">{step.title}</span>
                  ) : (
                    <Link href={step.href} className="text-indigo-700 underline">
                      {step.title}
                    </Link>
                  )}
                  {done ? <Badge tone="success">Done</Badge> : null}
                </p>
                <p className="mt-1 text-xs text-slate-600">{step.text}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
