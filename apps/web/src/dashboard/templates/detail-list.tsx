'use client';

import type { FieldDetail } from '@svc/contracts';

/** The service's details, with a way to jump to the line of each one that has a place. */
export function DetailList({ details, onPick }: { details: FieldDetail[]; onPick: (line: number, column?: number) => void }) {
  if (details.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5">
      {details.map((detail, index) => (
        <li key={index}>
          {detail.line ? (
            <button type="button" className="underline decoration-dotted underline-offset-2" onClick={() => onPick(detail.line!, detail.column)}>
              Line {detail.line}
              {detail.column ? `, column ${detail.column}` : ''}
            </button>
          ) : (
            <span className="font-mono text-xs">{detail.field || 'document'}</span>
          )}
          : {detail.reason}
        </li>
      ))}
    </ul>
  );
}
