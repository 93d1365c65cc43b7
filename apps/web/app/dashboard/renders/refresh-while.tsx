'use client';
// Keeps a server-rendered page current while its work runs: asks the server for the page again
// every interval (router.refresh keeps scroll, focus and form state), and stops once it ends.
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

export function RefreshWhile({ active, intervalMs = 1500 }: { active: boolean; intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      // a hidden tab does not need fresh progress
      if (document.visibilityState === 'visible') router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, router]);
  return null;
}
