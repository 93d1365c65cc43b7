'use client';
// The Developers page's quick start: a curl command that works when pasted. It names the key as
// a placeholder to replace (the page only knows a key's first characters), or, right after a
// key is created on this page, the new key itself.
import { createContext, type ReactNode, useContext, useState } from 'react';
import { Card, CardHeader } from '../../../src/dashboard/ui/card.tsx';
import { CopyButton } from '../../../src/dashboard/ui/copy-button.tsx';

export const keyPlaceholder = 'YOUR_API_KEY';

const NewKey = createContext<{ secret: string | null; created: (secret: string) => void }>({ secret: null, created: () => {} });

/** Holds the secret of a key created on this page while the page stays open (never stored). */
export function NewKeyProvider({ children }: { children: ReactNode }) {
  const [secret, created] = useState<string | null>(null);
  return <NewKey.Provider value={{ secret, created }}>{children}</NewKey.Provider>;
}

/** For the form that creates keys: hands the new secret to the quick start. */
export function useKeyCreated(): (secret: string) => void {
  return useContext(NewKey).created;
}

export function quickStartCommand(base: string, key: string): string {
  return [
    `curl -X POST ${base}/v1/pdf \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"html": "<h1>Hello</h1>"}'`,
  ].join('\n');
}

/** `newestPrefix`: the first characters of the newest active key, to tell which key to use. */
export function QuickStart({ base, newestPrefix }: { base: string; newestPrefix: string | null }) {
  const { secret } = useContext(NewKey);
  const command = quickStartCommand(base, secret ?? keyPlaceholder);
  const description = secret
    ? 'Uses the key you just created, so it works as it is. It holds the key: keep it to yourself.'
    : newestPrefix
      ? `Replace ${keyPlaceholder} with your key (the one starting ${newestPrefix}…, as you copied it when you created it).`
      : `Create a key below, then use it in place of ${keyPlaceholder}.`;
  return (
    <Card aria-labelledby="quick-start-heading">
      <CardHeader id="quick-start-heading" title="Quick start" description={description} actions={<CopyButton value={command} label="Copy command" />} />
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100" data-testid="quick-start">
        {command}
      </pre>
      <p className="mt-2 text-sm text-slate-600">
        The answer is the finished render as JSON, with a download URL. The full contract is at{' '}
        <a className="text-indigo-700 underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>
        .
      </p>
    </Card>
  );
}
