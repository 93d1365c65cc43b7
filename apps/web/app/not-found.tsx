import { connection } from 'next/server';

// An address that names no page. Rendered per request like every page, so its scripts carry
// the response's nonce (a prebuilt page's could not).
export default async function NotFound() {
  await connection();
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: '42rem', padding: '0 1rem' }}>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
    </main>
  );
}
