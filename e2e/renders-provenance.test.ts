// Where a file came from: a rendered file's metadata names its job, the saved-template version
// and the keyed hash of the canonical data (docs/decisions/renders.md, Provenance), read back from
// the file the API serves and checked as a customer does, with the account's key from GET /v1/me.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, newAccount, serviceDb } from './support/api.ts';
import { renderOk } from './support/files.ts';
import { createGroup, newTemplate, settled } from './support/groups.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The account's provenance key, as the account reads it. */
async function provenanceKey(apiKey: string): Promise<string> {
  const me = await api('/v1/me', { key: apiKey });
  expect(me.status).toBe(200);
  expect(me.body.provenance_key).toMatch(/^[0-9a-f]{64}$/);
  return me.body.provenance_key;
}

/** The documented check (docs/document-features.md): HMAC-SHA-256 of the canonical JSON under the account's key. */
const keyedHash = (key: string, canonical: string) => `hmac-sha256:${createHmac('sha256', Buffer.from(key, 'hex')).update(canonical).digest('hex')}`;

/** Runs the check exactly as docs/document-features.md prints it, on the data as a customer holds it. */
function documentedCheck(key: string, data: unknown): string {
  const doc = readFileSync(new URL('../docs/document-features.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Where a file came from'));
  const command = /^node -e '[\s\S]*?' < data\.json$/m.exec(section)![0].replace(/ < data\.json$/, '');
  return execFileSync('bash', ['-c', command], { input: JSON.stringify(data, null, 2), env: { ...process.env, PROVENANCE_KEY: key }, encoding: 'utf8' }).trim();
}

function pdfCustomInfo(bytes: Buffer): Record<string, string> {
  const lines = spawnSync('pdfinfo', ['-custom', '-enc', 'UTF-8', '-'], { input: bytes }).stdout.toString().split('\n');
  return Object.fromEntries(lines.filter((line) => line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
}

const pdfXmp = (bytes: Buffer) => spawnSync('pdfinfo', ['-meta', '-'], { input: bytes }).stdout.toString();

describe('provenance in rendered files', () => {
  it('a saved-template PDF carries its job id, template id and version, and the hash of its key-sorted data', async () => {
    const account = await newAccount();
    const created = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { name: 'Certificate', source: '<h1>{{ name }} – {{ city }}</h1>' } });
    expect(created.status).toBe(201);
    const template = created.body;
    // keys out of order and a non-ASCII value: the hash is of the canonical (key-sorted) JSON
    const rendered = await renderOk('pdf', account.apiKey, { template_id: template.id, data: { name: 'Zoë', city: '東京' } });
    const dataHash = keyedHash(await provenanceKey(account.apiKey), '{"city":"東京","name":"Zoë"}');

    const info = pdfCustomInfo(rendered.file.bytes);
    expect(info.SvcJobId).toBe(rendered.job.id);
    expect(info.SvcTemplateId).toBe(template.id);
    expect(info.SvcTemplateVersion).toBe('1');
    expect(info.SvcDataSha256).toBe(dataHash);
    const xmp = pdfXmp(rendered.file.bytes);
    expect(xmp).toContain(`<svc:JobId>${rendered.job.id}</svc:JobId>`);
    expect(xmp).toContain(`<svc:TemplateId>${template.id}</svc:TemplateId>`);
    expect(xmp).toContain(`<svc:DataSha256>${dataHash}</svc:DataSha256>`);
    const stored = await serviceDb().renderJob.findUniqueOrThrow({ where: { id: rendered.job.id } });
    expect(stored.dataSha256).toBe(dataHash);
  });

  it('a stateless template render records the data hash but no template; raw HTML only its job', async () => {
    const account = await newAccount();
    const stateless = await renderOk('pdf', account.apiKey, { html: '<p>{{ n }}</p>', data: { n: 1 } });
    const statelessInfo = pdfCustomInfo(stateless.file.bytes);
    expect(statelessInfo.SvcJobId).toBe(stateless.job.id);
    expect(statelessInfo.SvcDataSha256).toBe(keyedHash(await provenanceKey(account.apiKey), '{"n":1}'));
    expect(statelessInfo.SvcTemplateId).toBeUndefined();

    const raw = await renderOk('pdf', account.apiKey, { html: '<p>raw</p>' });
    const rawInfo = pdfCustomInfo(raw.file.bytes);
    expect(rawInfo.SvcJobId).toBe(raw.job.id);
    expect(rawInfo.SvcDataSha256).toBeUndefined();
  });

  it('a saved-template image carries the same in its XMP and PNG text', async () => {
    const account = await newAccount();
    const created = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>{{ name }}</p>' } });
    const template = created.body;
    const rendered = await renderOk('image', account.apiKey, { template_id: template.id, data: { name: 'Ann' }, image: { format: 'png', width: 400, height: 300 } });
    const metadata = await sharp(rendered.file.bytes).metadata();
    const text = Object.fromEntries((metadata.comments ?? []).map((comment) => [comment.keyword, comment.text]));
    const dataHash = keyedHash(await provenanceKey(account.apiKey), '{"name":"Ann"}');
    expect(text).toMatchObject({ SvcJobId: rendered.job.id, SvcTemplateId: template.id, SvcTemplateVersion: '1', SvcDataSha256: dataHash });
    expect(metadata.xmp?.toString('utf8')).toContain(`<svc:JobId>${rendered.job.id}</svc:JobId>`);
  });

  it('each batch row carries its own row data hash', async () => {
    const account = await newAccount({ plan: 'starter', credits: 5 });
    const template = await newTemplate(account.apiKey, { name: 'Row', source: '<p>{{ name }}</p>' });
    const rows = [{ name: 'Ann', n: 1 }, { n: 2, name: 'Bob' }];
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows });
    expect(created.status).toBe(201);
    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(batch.state).toBe('complete');
    const key = await provenanceKey(account.apiKey);
    for (const [index, hash] of [keyedHash(key, '{"n":1,"name":"Ann"}'), keyedHash(key, '{"n":2,"name":"Bob"}')].entries()) {
      const file = Buffer.from(await (await fetch(batch.rows[index].download_url)).arrayBuffer());
      const info = pdfCustomInfo(file);
      expect(info.SvcJobId).toMatch(/^pdf_/);
      expect(info.SvcTemplateId).toBe(template.id);
      expect(info.SvcTemplateVersion).toBe('1');
      expect(info.SvcDataSha256).toBe(hash);
    }
  });

  it('the data hash is keyed per account: the same data hashes differently for two accounts, and never as its plain SHA-256', async () => {
    // a field the document never shows: whoever holds the file must not be able to confirm a guess of it
    const data = { name: 'Ann', national_id: '850101-1234' };
    const canonical = '{"name":"Ann","national_id":"850101-1234"}';
    const first = await newAccount();
    const second = await newAccount();
    const hashes: string[] = [];
    for (const account of [first, second]) {
      const rendered = await renderOk('pdf', account.apiKey, { html: '<p>{{ name }}</p>', data });
      const key = await provenanceKey(account.apiKey);
      const info = pdfCustomInfo(rendered.file.bytes);
      expect(info.SvcDataSha256).toBe(keyedHash(key, canonical));
      expect(documentedCheck(key, data)).toBe(info.SvcDataSha256);
      expect(pdfXmp(rendered.file.bytes)).toContain(`<svc:DataSha256>${keyedHash(key, canonical)}</svc:DataSha256>`);
      expect(info.SvcDataSha256).not.toContain(sha256(canonical));
      // the key is the account's for good: asked again, it is the same
      expect(await provenanceKey(account.apiKey)).toBe(key);
      hashes.push(info.SvcDataSha256!);
    }
    expect(hashes[0]).not.toBe(hashes[1]);
    expect(await provenanceKey(first.apiKey)).not.toBe(await provenanceKey(second.apiKey));
    // and the database holds the keyed hash, so a copy of it confirms no guess either
    const stored = await serviceDb().renderJob.findMany({ where: { accountId: first.accountId }, select: { dataSha256: true } });
    expect(stored.map((row) => row.dataSha256)).toEqual([hashes[0]]);
  });
});
