import { serviceContext } from '../../src/http/context.ts';
import { buttonClass } from '../../src/dashboard/ui/button.tsx';
import { Card } from '../../src/dashboard/ui/card.tsx';
import { CopyButton } from '../../src/dashboard/ui/copy-button.tsx';
import { PublicStatsList, readPublicStats } from '../../src/site/public-stats.tsx';

export const metadata = { title: 'Rendering Service: HTML and templates to PDF and images' };

const features = [
  { title: 'PDF and images from one request', text: 'Send HTML, a template with its data, or a saved template version; get a PDF, PNG, JPEG or WebP back.' },
  { title: 'Templates you can keep', text: 'Versioned templates with a schema for their data, canvas sizes, brand kits and a starter gallery.' },
  { title: 'Batches and webhooks', text: 'Render many files from one template, download them as one archive, and hear about each render through signed webhooks.' },
  { title: 'A report with every render', text: 'Which fonts were used, what could not be drawn and how long each stage took, in plain words.' },
];

/** A first PDF as a shell command, against the address this service answers on. */
const firstRequest = (origin: string) => `KEY=svc_sk_v1_...   # your API key
curl -X POST ${origin}/v1/pdf \\
  -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"html": "<h1>Hello</h1>"}'`;

export default async function Home() {
  const stats = await readPublicStats();
  const command = firstRequest(serviceContext().config.publicUrl);
  return (
    <div className="mx-auto max-w-6xl space-y-12 px-4 py-12">
      <section className="max-w-3xl">
        <h1 className="text-4xl font-semibold tracking-tight text-slate-900">HTML and templates to PDF and images, through one API</h1>
        <p className="mt-4 text-lg text-slate-700">
          Rendering Service turns HTML, templates and saved template versions into PDF, PNG, JPEG and WebP files, with a dashboard for your keys,
          templates, brand kits and render history.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href="/sign-in" className={buttonClass('primary', 'px-4 py-2.5 text-base')}>
            Sign in
          </a>
          <a href="/docs" className={buttonClass('secondary', 'px-4 py-2.5 text-base')}>
            Read the API reference
          </a>
        </div>
        <p className="mt-3 text-sm text-slate-600">No password: we email you a one-use link, and a new address gets a free account.</p>
      </section>

      <section aria-labelledby="numbers">
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="numbers" className="text-xl font-semibold text-slate-900">
            The service right now
          </h2>
          <a href="/status" className="text-sm font-medium text-indigo-700 hover:text-indigo-900">
            Status details
          </a>
        </div>
        <PublicStatsList stats={stats} />
      </section>

      <section aria-labelledby="what">
        <h2 id="what" className="mb-4 text-xl font-semibold text-slate-900">
          What it does
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <h3 className="text-base font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="first-request">
        <h2 id="first-request" className="mb-4 text-xl font-semibold text-slate-900">
          A first request
        </h2>
        <Card>
          <p className="mb-3 text-sm text-slate-700">
            Create an API key on the dashboard's Developers page, then ask for a PDF. The{' '}
            <a href="/docs" className="font-medium text-indigo-700 underline hover:text-indigo-900">
              API reference
            </a>{' '}
            has every operation, its errors and a request you can copy.
          </p>
          <pre className="overflow-x-auto rounded-md bg-slate-900 p-4 font-mono text-sm text-slate-100" data-testid="first-request">
            {command}
          </pre>
          <div className="mt-3">
            <CopyButton value={command} label="Copy the command" />
          </div>
          <p className="mt-3 text-sm text-slate-700">The answer is the finished render as JSON; its download link serves the PDF for an hour.</p>
        </Card>
      </section>

      <section aria-labelledby="testimonials">
        <h2 id="testimonials" className="mb-4 text-xl font-semibold text-slate-900">
          Testimonials
        </h2>
        <Card>
          <p className="text-sm text-slate-700">
            Made something with the service? Tell us how it went. We read every testimonial before anything is published.
          </p>
          <a href="/testimonials" className={buttonClass('secondary', 'mt-4')}>
            Send a testimonial
          </a>
        </Card>
      </section>
    </div>
  );
}
