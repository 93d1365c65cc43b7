import { ApiReferenceLoader } from './api-reference-loader.tsx';

export const metadata = { title: 'API reference · Rendering Service' };

// Every /v1 operation, its errors and the webhook signature recipe, from the served contract.
export default function Docs() {
  return (
    <>
      <h1 className="sr-only">API reference</h1>
      <ApiReferenceLoader />
      <noscript>
        <p className="mx-auto max-w-6xl px-4 py-12 text-sm text-slate-700">
          The API reference needs JavaScript. The contract itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </p>
      </noscript>
    </>
  );
}
