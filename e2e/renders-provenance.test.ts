// Where a file came from: a rendered file's metadata names its job, the saved-template version
// and the SHA-256 of the canonical data (docs/decisions/renders.md, Provenance), read back from
// the file the API serves.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, newAccount, serviceDb } from './support/api.ts';
import { renderOk } from './support/files.ts';
import { createGroup, newTemplate, settled } from './support/groups.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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
    const dataHash = sha256('{"city":"東京","name":"Zoë"}');

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
    expect(statelessInfo.SvcDataSha256).toBe(sha256('{"n":1}'));
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
    expect(text).toMatchObject({ SvcJobId: rendered.job.id, SvcTemplateId: template.id, SvcTemplateVersion: '1', SvcDataSha256: sha256('{"name":"Ann"}') });
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
    for (const [index, hash] of [sha256('{"n":1,"name":"Ann"}'), sha256('{"n":2,"name":"Bob"}')].entries()) {
      const file = Buffer.from(await (await fetch(batch.rows[index].download_url)).arrayBuffer());
      const info = pdfCustomInfo(file);
      expect(info.SvcJobId).toMatch(/^pdf_/);
      expect(info.SvcTemplateId).toBe(template.id);
      expect(info.SvcTemplateVersion).toBe('1');
      expect(info.SvcDataSha256).toBe(hash);
    }
  });
});
