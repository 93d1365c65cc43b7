// The service's log lines, as a process writes them on stderr: one JSON event per line, the ids
// of the request or job in scope, secrets cut to their prefix and a fingerprint, signed links
// without their signature, and readable text when asked.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const downloadSignature = 'Zq3-_x'.repeat(7) + 'A';
const download = `pdf_${'0a'.repeat(16)}.1767225600.${downloadSignature}`;
const archiveSignature = 'Yb9_-w'.repeat(7) + 'B';
const archive = `batch_${'1b'.repeat(16)}.1767225600.${archiveSignature}`;

const script = `
import { createLogger, withLogScope } from './packages/core/src/wiring/logger.ts';
const logger = createLogger('web');
logger.info('plain', { port: 3000 });
await withLogScope({ requestId: 'req-1' }, async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  await withLogScope({ jobId: 'job-1' }, async () => logger.warn('inside'));
});
logger.error('key svc_sk_v1_0123456789abcdef leaked', {
  link: 'http://localhost:3000/auth/sign-in/svc_link_00ff00ff',
  password: 'hunter2',
  nested: { webhookSecret: 'svc_whsec_abc', note: 'session svc_ses_abc', url: 'postgres://svc:pg-pass@db:5432/svc' },
  error: new Error('connect failed for svc_sk_v1_feedbeef'),
});
logger.info('request', {
  path: '/v1/downloads/${download}',
  archive: 'GET http://localhost:3000/v1/batches/archive/${archive}?again=${archive}',
  operator: 'Bearer svc_op_v1_${'ab'.repeat(32)}',
});
logger.info('escaped', {
  path: '/v1/downloads/${download.replaceAll('.', '%2E')}',
  key: '/v1/me?k=svc%5Fsk%5Fv1%5F0123%34567%2538',
  plain: 'a%20note%20with%20no%20secret',
});
`;

function logLines(env: Record<string, string> = {}): string[] {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, SVC_LOG_FORMAT: undefined, ...env },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout).toBe('');
  return result.stderr.trimEnd().split('\n');
}

describe('the log', () => {
  it('writes one JSON event per line with time, level, component, message and the ids in scope', () => {
    const [plain, inside] = logLines().map((line) => JSON.parse(line));
    expect(plain).toMatchObject({ level: 'info', component: 'web', message: 'plain', port: 3000 });
    expect(Number.isNaN(Date.parse(plain.time))).toBe(false);
    expect(plain).not.toHaveProperty('requestId');
    expect(inside).toMatchObject({ level: 'warn', message: 'inside', requestId: 'req-1', jobId: 'job-1' });
  });

  it('never writes an issued secret whole, nor a field named for a secret', () => {
    const lines = logLines();
    const text = lines.join('\n');
    for (const secret of ['0123456789abcdef', '00ff00ff', 'hunter2', 'svc_whsec_abc', 'svc_ses_abc', 'feedbeef', 'pg-pass']) expect(text).not.toContain(secret);
    const event = JSON.parse(lines[2]!);
    expect(event).toMatchObject({
      message: `key svc_sk_v1_[redacted:${fingerprint('svc_sk_v1_0123456789abcdef')}] leaked`,
      link: `http://localhost:3000/auth/sign-in/svc_link_[redacted:${fingerprint('svc_link_00ff00ff')}]`,
      password: '[redacted]',
      nested: { webhookSecret: '[redacted]', note: `session svc_ses_[redacted:${fingerprint('svc_ses_abc')}]`, url: 'postgres://svc:[redacted]@db:5432/svc' },
      error: `connect failed for svc_sk_v1_[redacted:${fingerprint('svc_sk_v1_feedbeef')}]`,
    });
  });

  it('writes signed links without their signature, and operator tokens cut like the other secrets', () => {
    const lines = logLines();
    const text = lines.join('\n');
    for (const secret of [downloadSignature, archiveSignature, 'ab'.repeat(32)]) expect(text).not.toContain(secret);
    const event = JSON.parse(lines[3]!);
    expect(event).toMatchObject({
      // the id and expiry stay: which file was asked for, and until when the link ran
      path: `/v1/downloads/pdf_${'0a'.repeat(16)}.1767225600.[redacted]`,
      archive: `GET http://localhost:3000/v1/batches/archive/batch_${'1b'.repeat(16)}.1767225600.[redacted]?again=batch_${'1b'.repeat(16)}.1767225600.[redacted]`,
      operator: `Bearer svc_op_v1_[redacted:${fingerprint(`svc_op_v1_${'ab'.repeat(32)}`)}]`,
    });
  });

  it('writes secrets and signed links sent percent-encoded the same way, decoded', () => {
    const lines = logLines();
    const text = lines.join('\n');
    for (const secret of [downloadSignature, '01234567', '0123%34567']) expect(text).not.toContain(secret);
    expect(JSON.parse(lines[4]!)).toMatchObject({
      path: `/v1/downloads/pdf_${'0a'.repeat(16)}.1767225600.[redacted]`,
      // the fingerprint is the decoded key's, as the database's verifier is
      key: `/v1/me?k=svc_sk_v1_[redacted:${fingerprint('svc_sk_v1_012345678')}]`,
      plain: 'a%20note%20with%20no%20secret',
    });
  });

  it('writes readable lines for a terminal with SVC_LOG_FORMAT=pretty', () => {
    const text = logLines({ SVC_LOG_FORMAT: 'pretty' }).join('\n');
    expect(text).not.toMatch(/^\{/m);
    expect(text).toMatch(/INFO.*web: plain/);
    expect(text).toContain('requestId: "req-1"');
    expect(text).not.toContain('hunter2');
  });
});

/** The start of the SHA-256 the database keeps as a key's, a session's or a link's verifier. */
function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}
