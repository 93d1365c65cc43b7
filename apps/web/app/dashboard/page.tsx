// A placeholder until the dashboard arrives: where a sign-in link lands.
export const dynamic = 'force-dynamic';

export default function Dashboard() {
  return (
    <main>
      <h1>Dashboard</h1>
      <p>
        You are signed in. Your account is at <a href="/v1/me">/v1/me</a>.
      </p>
    </main>
  );
}
