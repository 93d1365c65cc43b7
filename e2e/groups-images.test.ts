// Carousels and image packs (the contract's groups and their routes, and adapt as packs use it): one normal image job per
// selected canvas page or size, failures of one member leaving the others to run.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { imageInfo } from './support/files.ts';
import { createGroup, fetchArchive, newTemplate, settled, unzip } from './support/groups.ts';
import { securitySuite } from './support/security.ts';

const page = (id: string, name: string | null, colour: string) =>
  `<section class="page" data-svc-page="${id}"${name ? ` data-svc-page-name="${name}"` : ''} style="background:${colour}">` +
  `<div style="position:absolute;left:40px;top:40px;width:320px;height:60px;font-size:24px">{{ title }}</div></section>`;
const carouselSource =
  '<meta name="svc-canvas" content="400x300"><style>body{margin:0}.page{position:relative;width:400px;height:300px;overflow:hidden}</style>' +
  page('cover', 'Cover', 'rgb(255,0,0)') +
  page('middle', 'The middle', 'rgb(0,255,0)') +
  page('end', null, 'rgb(0,0,255)');

/** The colour at a point of an image, as [r, g, b]. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
}
const balance = async (accountId: string) => (await serviceDb().creditBalance.findFirst({ where: { accountId, bucket: 'trial' } }))?.balance;

describe('carousels', () => {
  it('renders the selected pages in requested order, named from data-svc-page-name, one credit each', async () => {
    const account = await newAccount({ plan: 'starter', credits: 10 });
    const template = await newTemplate(account.apiKey, { name: 'Deck', source: carouselSource, input_mode: 'blank' });
    const created = await createGroup('carousels', account.apiKey, { template_id: template.id, format: 'png', pages: ['end', 'cover'], data: { title: 'Hello' } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^carousel_[0-9a-f]{32}$/);
    const carousel = await settled('carousels', account.apiKey, created.body.id);
    expect(carousel.state).toBe('complete');
    expect(carousel.members.map((m: any) => [m.position, m.page_id, m.name, m.width, m.height, m.state])).toEqual([
      [0, 'end', 'end', 400, 300, 'succeeded'],
      [1, 'cover', 'Cover', 400, 300, 'succeeded'],
    ]);
    expect(await balance(account.accountId)).toBe(8);

    const files = await Promise.all(carousel.members.map(async (m: any) => Buffer.from(await (await fetch(m.download_url)).arrayBuffer())));
    expect(await imageInfo(files[0])).toMatchObject({ format: 'png', width: 400, height: 300 });
    expect(await pixel(files[0], 390, 290)).toEqual([0, 0, 255]);
    expect(await pixel(files[1], 390, 290)).toEqual([255, 0, 0]);
    for (const job of await serviceDb().renderJob.findMany({ where: { groupId: carousel.id } })) expect(job.id).toMatch(/^image_/);

    const entries = await unzip((await fetchArchive(carousel.archive_url)).bytes);
    expect(entries.map((entry) => entry.name)).toEqual(['01-end.png', '02-cover.png', 'manifest.json']);
    expect(await pixel(entries[1]!.bytes, 10, 10)).toEqual([255, 0, 0]);
    const manifest = JSON.parse(entries[2]!.bytes.toString('utf8'));
    expect(manifest.members).toEqual([
      expect.objectContaining({ position: 0, page_id: 'end', state: 'succeeded', file: '01-end.png' }),
      expect.objectContaining({ position: 1, page_id: 'cover', state: 'succeeded', file: '02-cover.png' }),
    ]);
  });

  it('refuses unknown and repeated page ids before anything is created', async () => {
    const account = await newAccount({ plan: 'starter', credits: 5 });
    const template = await newTemplate(account.apiKey, { source: carouselSource, input_mode: 'blank' });
    const unknown = await createGroup('carousels', account.apiKey, { template_id: template.id, format: 'png', pages: ['cover', 'nope'], data: { title: 'x' } });
    expect(expectError(unknown, 400, 'invalid_request').details).toEqual([{ field: 'pages.1', reason: 'invalid value' }]);
    expectError(await createGroup('carousels', account.apiKey, { template_id: template.id, format: 'png', pages: ['cover', 'cover'], data: { title: 'x' } }), 400, 'invalid_request');
    expectError(await createGroup('carousels', account.apiKey, { template_id: template.id, format: 'pdf', pages: ['cover'] }), 400, 'invalid_request');
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await balance(account.accountId)).toBe(5);
  });
});

const square =
  '<meta name="svc-canvas" content="600x600"><style>body{margin:0}</style><div style="width:600px;height:600px;background:rgb(255,0,255)">{{ title }}</div>';
const packSource =
  '<meta name="svc-canvas" content="800x400"><style>body{margin:0}</style><div style="position:relative;width:800px;height:400px;background:rgb(0,0,255)">' +
  '<div style="position:absolute;left:40px;top:40px;width:400px;height:80px;font-size:32px;color:white">{{ title }}</div></div>';

describe('image packs', () => {
  it('renders original, a saved size with its data overrides, a preset and a custom size', async () => {
    const account = await newAccount({ plan: 'starter', credits: 10 });
    const template = await newTemplate(account.apiKey, {
      source: packSource,
      input_mode: 'blank',
      sizes: [{ id: 'square', name: 'Square', width: 600, height: 600, status: 'edited', source: square, data_overrides: { title: 'Square title' } }],
    });
    const sizes = ['original', 'square', 'instagram-square', '640x360'];
    const created = await createGroup('image-packs', account.apiKey, { template_id: template.id, format: 'jpeg', sizes, data: { title: 'Pack title' } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^pack_[0-9a-f]{32}$/);
    const pack = await settled('image-packs', account.apiKey, created.body.id);
    expect(pack.state).toBe('complete');
    expect(pack.members.map((m: any) => [m.size_id, m.name, m.width, m.height, m.state])).toEqual([
      ['original', 'Original', 800, 400, 'succeeded'],
      ['square', 'Square', 600, 600, 'succeeded'],
      ['instagram-square', 'Instagram square', 1080, 1080, 'succeeded'],
      ['640x360', '640x360', 640, 360, 'succeeded'],
    ]);
    for (const member of pack.members) {
      const bytes = Buffer.from(await (await fetch(member.download_url)).arrayBuffer());
      expect(await imageInfo(bytes)).toMatchObject({ format: 'jpeg', width: member.width, height: member.height });
    }
    // the saved size's overrides apply to that size only
    const members = await serviceDb().renderGroupMember.findMany({ where: { groupId: pack.id }, orderBy: { position: 'asc' } });
    expect(members[1]!.html).toContain('Square title');
    expect(members[0]!.html).toContain('Pack title');
    expect(members[2]!.html).toContain('content="1080x1080"');
    expect(await balance(account.accountId)).toBe(6);

    const entries = await unzip((await fetchArchive(pack.archive_url)).bytes);
    expect(entries.map((entry) => entry.name)).toEqual(['01-original.jpg', '02-square.jpg', '03-instagram-square.jpg', '04-640x360.jpg', 'manifest.json']);
  });

  it('fails the sizes a revoked key has not started with key_revoked, releasing their credit', async () => {
    const account = await newAccount({ plan: 'starter', credits: 20 });
    const other = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'leaked' } });
    const template = await newTemplate(account.apiKey, { source: packSource, input_mode: 'blank' });
    const sizes = Array.from({ length: 10 }, (_, index) => `${640 + index}x360`);
    const created = await createGroup('image-packs', other.body.secret, { template_id: template.id, format: 'png', sizes, data: { title: 'T' } });
    expect(created.status).toBe(201);
    expect((await api(`/v1/keys/${other.body.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(200);

    const pack = await settled('image-packs', account.apiKey, created.body.id);
    expect(['failed', 'partial']).toContain(pack.state);
    const succeeded = pack.members.filter((member: { state: string }) => member.state === 'succeeded');
    const revoked = pack.members.filter((member: { state: string; error: { code: string } | null }) => member.state === 'failed' && member.error?.code === 'key_revoked');
    expect(revoked.length).toBeGreaterThanOrEqual(6);
    expect(succeeded.length + revoked.length).toBe(10);
    for (const member of revoked) expect(member.download_url).toBeNull();
    expect(await balance(account.accountId)).toBe(20 - succeeded.length);
    expect(await serviceDb().creditReservation.count({ where: { accountId: account.accountId, state: 'reserved' } })).toBe(0);
    // a job the revocation stopped ended cancelled: credit released and render.cancelled recorded
    for (const job of await serviceDb().renderJob.findMany({ where: { groupId: pack.id, status: { not: 'succeeded' } } })) {
      expect(job).toMatchObject({ status: 'cancelled', credit: 'released' });
      expect(await serviceDb().renderEvent.count({ where: { jobId: job.id, type: 'render.cancelled' } })).toBe(1);
    }
    if (pack.archive_url) {
      const manifest = JSON.parse((await unzip((await fetchArchive(pack.archive_url)).bytes)).at(-1)!.bytes.toString('utf8'));
      expect(manifest.members.filter((member: { error_code: string }) => member.error_code === 'key_revoked')).toHaveLength(revoked.length);
    }

    // a retry by another key does not spend for the revoked one
    const jobs = await serviceDb().renderJob.count({ where: { groupId: pack.id } });
    const retried = await api(`/v1/image-packs/${pack.id}/retry`, { method: 'POST', key: account.apiKey });
    expect(retried.status).toBe(200);
    expect(retried.body.members.filter((member: { state: string }) => member.state === 'failed')).toHaveLength(revoked.length);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await serviceDb().renderJob.count({ where: { groupId: pack.id } })).toBe(jobs);
    expect(await balance(account.accountId)).toBe(20 - succeeded.length);
  });

  it('fails a size that cannot be adapted at once, with no job and no credit, while the others run', async () => {
    const account = await newAccount({ plan: 'starter', credits: 10 });
    const flow = '<style>body{margin:0}</style><h1>{{ title }}</h1>';
    const template = await newTemplate(account.apiKey, {
      source: flow,
      sizes: [{ id: 'square', name: 'Square', width: 600, height: 600, status: 'edited', source: square }],
    });
    const created = await createGroup('image-packs', account.apiKey, { template_id: template.id, format: 'png', sizes: ['story', 'square', 'original'], data: { title: 'T' } });
    expect(created.status).toBe(201);
    expect(created.body.members[0]).toMatchObject({ size_id: 'story', width: 1080, height: 1920, state: 'failed', error: { code: 'resize_source_unsupported' }, download_url: null });
    expect(created.body.members[2]).toMatchObject({ size_id: 'original', state: 'failed', error: { code: 'resize_source_unsupported' } });
    const pack = await settled('image-packs', account.apiKey, created.body.id);
    expect(pack.state).toBe('partial');
    expect(pack.members[1].state).toBe('succeeded');
    expect(await serviceDb().renderJob.count({ where: { groupId: pack.id } })).toBe(1);
    expect(await balance(account.accountId)).toBe(9);

    const manifest = JSON.parse((await unzip((await fetchArchive(pack.archive_url)).bytes)).at(-1)!.bytes.toString('utf8'));
    expect(manifest.members[0]).toMatchObject({ size_id: 'story', state: 'failed', error_code: 'resize_source_unsupported', job_id: null, file: null });
    // a retry leaves a size that cannot be adapted as it is
    const retried = await api(`/v1/image-packs/${pack.id}/retry`, { method: 'POST', key: account.apiKey });
    expect(retried.status).toBe(200);
    expect(retried.body.members[0].state).toBe('failed');
    expect(await serviceDb().renderJob.count({ where: { groupId: pack.id } })).toBe(1);
  });

  it('refuses sizes that are no saved size, preset or WIDTHxHEIGHT in range', async () => {
    const account = await newAccount({ plan: 'starter', credits: 5 });
    const template = await newTemplate(account.apiKey, { source: packSource, input_mode: 'blank' });
    for (const size of ['nope', '100x100', '8000x400', 'Instagram-Square']) {
      const refused = await createGroup('image-packs', account.apiKey, { template_id: template.id, format: 'png', sizes: ['original', size], data: { title: 'x' } });
      expect(expectError(refused, 400, 'invalid_request').details, size).toEqual([{ field: 'sizes.1', reason: 'invalid value' }]);
    }
    expectError(await createGroup('image-packs', account.apiKey, { template_id: template.id, format: 'png', sizes: ['story', 'story'] }), 400, 'invalid_request');
    expectError(await createGroup('image-packs', account.apiKey, { template_id: template.id, format: 'png', sizes: [] }), 400, 'invalid_request');
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(0);
  });
});

securitySuite('GET /v1/carousels/{id}', {
  method: 'GET',
  path: (id) => `/v1/carousels/${id}`,
  missingId: 'carousel_00000000000000000000000000000000',
  arrange: async (account) => {
    const template = await newTemplate(account.apiKey, { source: carouselSource, input_mode: 'blank' });
    return (await createGroup('carousels', account.apiKey, { template_id: template.id, format: 'png', pages: ['cover'], data: { title: 'x' } })).body.id;
  },
});
securitySuite('POST /v1/image-packs/{id}/retry', {
  method: 'POST',
  path: (id) => `/v1/image-packs/${id}/retry`,
  missingId: 'pack_00000000000000000000000000000000',
  arrange: async (account) => {
    const template = await newTemplate(account.apiKey, { source: packSource, input_mode: 'blank' });
    return (await createGroup('image-packs', account.apiKey, { template_id: template.id, format: 'png', sizes: ['original'], data: { title: 'x' } })).body.id;
  },
});
