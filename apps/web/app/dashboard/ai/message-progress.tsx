'use client';
// A running message's progress: its stage and elapsed time, polled from the server about once
// a second (a server action reading the message); the page reloads its data when it ends.
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { SessionAction } from '../../../src/dashboard/actions.ts';
import { csrfFieldName } from '../../../src/dashboard/csrf.ts';
import { LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import { ErrorState } from '../../../src/dashboard/ui/states.tsx';
import type { ProgressView } from './actions.ts';

const stageLabels: Record<string, string> = {
  generate: 'Writing the draft',
  candidate: 'Checking and rendering a preview',
  review: 'Reviewing the preview',
  final: 'Finishing',
};
const ended = ['succeeded', 'failed', 'cancelled'];

export function MessageProgress({ poll, csrfToken, messageId, initial }: { poll: SessionAction<ProgressView>; csrfToken: string; messageId: string; initial: ProgressView }) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const result = await poll(null, { [csrfFieldName]: csrfToken, message_id: messageId }).catch(() => null);
      if (stopped) return;
      if (result?.ok) {
        setProblem(null);
        setProgress(result.data);
        if (ended.includes(result.data.state)) {
          router.refresh();
          return;
        }
      } else {
        setProblem(result ? result.message : 'The progress could not be read. Retrying…');
        if (result && (result.code === 'signed_out' || result.code === 'csrf_rejected')) return;
      }
      timer = setTimeout(tick, 1000);
    };
    timer = setTimeout(tick, 1000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [poll, csrfToken, messageId, router]);
  const typical = progress.typicalSeconds;
  const fraction = typical ? Math.min(0.95, progress.elapsedSeconds / typical) : null;
  return (
    <div className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950" data-testid="message-progress">
      <p role="status" aria-live="polite">
        <span className="font-medium" data-testid="progress-stage">
          {progress.state === 'queued' ? 'Waiting for a worker' : (stageLabels[progress.stage] ?? progress.stage)}
        </span>{' '}
        · <LocalNumber value={progress.elapsedSeconds} /> s elapsed
        {typical ? (
          <>
            {' '}
            (usually about <LocalNumber value={typical} /> s)
          </>
        ) : null}
        {progress.stage === 'review' && progress.maxReviews > 0 ? (
          <>
            {' '}
            · review <LocalNumber value={Math.min(progress.reviewCount + 1, progress.maxReviews)} /> of <LocalNumber value={progress.maxReviews} />
          </>
        ) : null}
        {progress.repairCode ? <> · repairing ({progress.repairCode})</> : null}
      </p>
      {fraction !== null ? (
        <div className="mt-2 h-1.5 overflow-hidden rounded bg-indigo-100" aria-hidden="true">
          <div className="h-full bg-indigo-600 transition-all" style={{ width: `${Math.round(fraction * 100)}%` }} />
        </div>
      ) : null}
      {problem ? <ErrorState className="mt-2" title={problem} /> : null}
    </div>
  );
}
