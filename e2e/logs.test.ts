// The log an operator reads: every line `npm start` writes on stderr, from every process, is one
// JSON event with time, level, component and message; the lines about a request carry its
// request id and those about a render its job id; no bearer credential used in a request (an
// API key, a sign-in link, a download or archive link) appears whole, and stdout holds only the
// banner a person reads once the service is ready, which names the files holding the demo
// account's key and link rather than the secrets.
import { readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { apiAt } from './support/api.ts';
import { npmStart, type StartedService } from './support/npm-start.ts';
import { until } from './support/until.ts';

interface LogEvent {
  time: string;
  level: string;
  component: string;
  message: string;
  requestId?: string;
  jobId?: string;
}

describe('the log of npm start', () => {
  it('is one JSON event per line, with request and job ids, and no bearer credential whole', async () => {
    const service = await npmStart();
    try {
      const { apiKey, signInLink } = await demoCredentials(service);
      const signInToken = /\/auth\/sign-in\/(svc_link_[0-9a-f]{64})$/.exec(signInLink)![1]!;
      const keys = await apiAt(service.baseUrl, '/v1/keys', { key: apiKey });
      expect(keys.status).toBe(200);
      const keysRequestId = keys.headers.get('x-request-id')!;
      const render = await apiAt(service.baseUrl, '/v1/pdf', { method: 'POST', key: apiKey, body: { html: '<h1>Logged</h1>' } });
      expect(render.body.status).toBe('succeeded');
      const renderRequestId = render.headers.get('x-request-id')!;

      // each bearer credential in a request's path, where the access line records it
      const downloadToken = await fetchOk(service, render.body.download.url);
      const archiveToken = await fetchOk(service, await batchArchiveUrl(service, apiKey));
      expect((await fetch(`${service.baseUrl}${new URL(signInLink).pathname}`)).status).toBe(200);
      expect((await apiAt(service.baseUrl, `/v1/no-such-route/${apiKey}`, { key: apiKey })).status).toBe(404);
      process.kill(service.npm.pid!, 'SIGTERM');
      expect(await service.exited).toBe(0);

      const lines = service.stderr().split('\n').filter((line) => line !== '');
      const events = lines.map((line) => {
        const event = JSON.parse(line) as LogEvent;
        expect(Number.isNaN(Date.parse(event.time)), line).toBe(false);
        expect(['info', 'warn', 'error'], line).toContain(event.level);
        expect(typeof event.component, line).toBe('string');
        expect(typeof event.message, line).toBe('string');
        return event;
      });
      // (set-up, the `setup` component, logs only when it has something to do)
      const components = new Set(events.map((event) => event.component));
      expect([...components].filter((component) => component !== 'setup').sort()).toEqual(['start', 'web', 'worker']);
      expect(events.filter((event) => event.level === 'error')).toEqual([]);

      const keysLines = events.filter((event) => event.requestId === keysRequestId);
      expect(keysLines).toContainEqual(expect.objectContaining({ component: 'web', message: 'request', method: 'GET', path: '/v1/keys', status: 200 }));
      expect(events.filter((event) => event.requestId === renderRequestId).map((event) => event.message)).toContain('request');
      const renderLines = events.filter((event) => event.jobId === render.body.id);
      expect(renderLines.map((event) => event.message)).toEqual(expect.arrayContaining(['render job started', 'render job ended']));
      expect(renderLines.every((event) => event.component === 'worker')).toBe(true);

      // the library notice of a pool without error handlers, and the web build's route table
      expect(service.stderr()).not.toMatch(/error handlers|Route \(app\)/);
      const signatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);
      for (const secret of [apiKey, signInToken, signatureOf(downloadToken), signatureOf(archiveToken)]) expect(service.stderr()).not.toContain(secret);
      // what stays says which file and which secret a line was about
      const paths = events.filter((event) => event.message === 'request').map((event) => (event as LogEvent & { path: string }).path);
      expect(paths).toContain(`/v1/downloads/${downloadToken.slice(0, downloadToken.lastIndexOf('.'))}.[redacted]`);
      expect(paths).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/v1\/batches\/archive\/batch_[0-9a-f]{32}\.\d+\.\[redacted\]$/),
          expect.stringMatching(/^\/auth\/sign-in\/svc_link_\[redacted:[0-9a-f]{8}\]$/),
        ]),
      );

      // stdout: the banner alone, in plain text
      const banner = service.stdout().trimEnd().split('\n');
      expect(banner[0]).toBe(`Rendering service ready at http://localhost:${service.port}`);
      expect(banner.filter((line) => line.startsWith('{'))).toEqual([]);
      expect(service.stdout()).not.toMatch(/svc_sk_v1_|svc_link_/);
    } finally {
      await service.cleanUp();
    }
  }, 240_000);
});

/**
 * The demo account's key and sign-in link, read from the files the banner names: each 0600, in
 * the data directory, holding the secret alone, while the banner holds neither secret.
 */
async function demoCredentials(service: StartedService): Promise<{ apiKey: string; signInLink: string }> {
  const banner = service.stdout();
  const keyFile = /^Demo API key [^:]*: (\/\S+)$/m.exec(banner)?.[1];
  const linkFile = /^Sign in to the demo account in a browser with the link in (\/\S+) \(one use/m.exec(banner)?.[1];
  if (!keyFile || !linkFile) throw new Error(`the banner names no credential files:\n${banner}`);
  for (const file of [keyFile, linkFile]) {
    expect(file.startsWith(`${service.dataDir}/`), file).toBe(true);
    expect((await stat(file)).mode & 0o777, file).toBe(0o600);
  }
  const apiKey = (await readFile(keyFile, 'utf8')).trim();
  const signInLink = (await readFile(linkFile, 'utf8')).trim();
  expect(apiKey).toMatch(/^svc_sk_v1_[0-9a-f]{64}$/);
  expect(signInLink).toMatch(/^http:\/\/localhost:\d+\/auth\/sign-in\/svc_link_[0-9a-f]{64}$/);
  expect(banner).not.toContain(apiKey);
  return { apiKey, signInLink };
}

/** Fetches a signed link on the service's own address; returns its token. */
async function fetchOk(service: StartedService, url: string): Promise<string> {
  const { pathname } = new URL(url);
  const response = await fetch(`${service.baseUrl}${pathname}`);
  expect(response.status, pathname).toBe(200);
  await response.arrayBuffer();
  return pathname.slice(pathname.lastIndexOf('/') + 1);
}

/** A one-row batch of a saved template, rendered; its archive link once it is there. */
async function batchArchiveUrl(service: StartedService, key: string): Promise<string> {
  const template = await apiAt(service.baseUrl, '/v1/templates', { method: 'POST', key, body: { name: 'Logged', source: '<h1>Hello {{ name }}</h1>' } });
  expect(template.status, template.text).toBe(201);
  const batch = await apiAt(service.baseUrl, '/v1/batches', { method: 'POST', key, body: { template_id: template.body.id, format: 'pdf', rows: [{ name: 'Ada' }] }, headers: { 'idempotency-key': 'logged-batch' } });
  expect(batch.status, batch.text).toBe(201);
  return until(async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return (await apiAt(service.baseUrl, `/v1/batches/${batch.body.id}`, { key })).body.archive_url ?? null;
  }, 120_000);
}
