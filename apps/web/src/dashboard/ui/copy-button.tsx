'use client';
import { useState } from 'react';
import { Button } from './button.tsx';

/** Copies `value` to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2500);
  }
  return (
    <>
      <Button variant="secondary" onClick={copy}>
        {state === 'copied' ? 'Copied' : label}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied' ? 'Copied to the clipboard' : state === 'failed' ? 'Copying failed: select the text and copy it yourself' : ''}
      </span>
    </>
  );
}
