// The log an operator reads: every line `npm start` writes on stderr, from every process, is one
// JSON event with time, level, component and message; the lines about a request carry its
// request id and those about a render its job id; no issued secret appears whole, and stdout
// holds only the banner a person reads once the service is ready.
import { describe, expect, it } from 'vitest';
import { apiAt } from './support/api.ts';
import { npmStart } from './support/npm-start.ts';

interface LogEvent {
  time: string;
  level: string;
  component: string;
  message: string;
  requestId?: string;
  jobId?: string;
}

describe('the log of npm start', () => {
  it('is one JSON event per line, with request and job ids, and no secret', async () => {
    const service = await npmStart();
    try {
      const apiKey = /Demo API key[^:]*: (svc_sk_v1_\S+)/.exec(service.stdout())![1]!;
      const signInToken = /\/auth\/sign-in\/(svc_link_[0-9a-f]+)/.exec(service.stdout())![1]!;
      const keys = await apiAt(service.baseUrl, '/v1/keys', { key: apiKey });
      expect(keys.status).toBe(200);
      const keysRequestId = keys.headers.get('x-request-id')!;
      const render = await apiAt(service.baseUrl, '/v1/pdf', { method: 'POST', key: apiKey, body: { html: '<h1>Logged</h1>' } });
      expect(render.body.status).toBe('succeeded');
      const renderRequestId = render.headers.get('x-request-id')!;
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
      for (const secret of [apiKey, signInToken]) expect(service.stderr()).not.toContain(secret);

      // stdout: the banner alone, in plain text
      const banner = service.stdout().trimEnd().split('\n');
      expect(banner[0]).toBe(`Rendering service ready at http://localhost:${service.port}`);
      expect(banner.filter((line) => line.startsWith('{'))).toEqual([]);
    } finally {
      await service.cleanUp();
    }
  }, 240_000);
});
