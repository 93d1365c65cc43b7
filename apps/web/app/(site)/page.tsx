export default function Home() {
  return (
    <main>
      <h1>Rendering Service</h1>
      <p>HTML, templates and saved template versions to PDF, PNG, JPEG and WebP.</p>
      <p>
        The API lives under <code>/v1</code>; its contract is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
      </p>
    </main>
  );
}
