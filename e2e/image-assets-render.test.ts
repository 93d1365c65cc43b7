// asset:// references at render creation and in the rendered output: ownership is checked after
// template expansion, the job captures the assets before it is queued, and the page receives
// the captured bytes without any network.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb, type TestAccount } from './support/api.ts';
import { download, renderOk } from './support/files.ts';
import { png, upload } from './support/images.ts';
import { until } from './support/until.ts';

const image = { format: 'png', width: 320, height: 200 } as const;

async function uploaded(account: TestAccount, colour: string): Promise<string> {
  const created = await upload(account.apiKey, await png(32, 32, colour), 'image/png');
  expect(created.status).toBe(201);
  return created.body.reference;
}

/** The colour at the centre of a rendered image. */
async function centre(bytes: Buffer): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

const fill = (src: string) => `<body style="margin:0;background:#fff"><img src="${src}" style="display:block;width:320px;height:200px"></body>`;

describe('asset references in renders', () => {
  it('shows an uploaded image in a real render: raw HTML, template data and CSS url()', async () => {
    const account = await newAccount();
    const red = await uploaded(account, '#ff0000');
    const raw = await renderOk('image', account.apiKey, { html: fill(red), image });
    expect(await centre(raw.file.bytes)).toEqual([255, 0, 0]);

    const green = await uploaded(account, '#00ff00');
    const templated = await renderOk('image', account.apiKey, { html: fill('{{ logo }}'), data: { logo: green }, image });
    expect(await centre(templated.file.bytes)).toEqual([0, 255, 0]);

    const blue = await uploaded(account, '#0000ff');
    const css = `<div style="width:320px;height:200px;background:url('${blue}') 0 0 / 100% 100%"></div><style>body{margin:0}</style>`;
    const styled = await renderOk('image', account.apiKey, { html: css, image });
    expect(await centre(styled.file.bytes)).toEqual([0, 0, 255]);
  });

  it('captures the assets with a queued job and renders them from the capture', async () => {
    const account = await newAccount();
    const red = await uploaded(account, '#ff0000');
    const created = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: fill(red), image, wait: false } });
    // 202 while queued or running, 200 if it already ended (the contract's render job lifecycle)
    expect([200, 202]).toContain(created.status);
    // captured before the job was queued, so whatever the worker finds later, it renders these bytes
    const captured = await serviceDb().renderJobAsset.findMany({ where: { jobId: created.body.id } });
    expect(captured.map((row) => `asset://${row.assetId}`)).toEqual([red]);
    const job = await until(async () => {
      const read = await api(`/v1/image/${created.body.id}`, { key: account.apiKey });
      return read.body.status === 'succeeded' ? read.body : null;
    });
    expect(await centre((await download(job)).bytes)).toEqual([255, 0, 0]);
  });

  it('renders saved templates with an asset from the data', async () => {
    const account = await newAccount();
    const red = await uploaded(account, '#ff0000');
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: fill('{{ logo }}') } });
    expect(template.status).toBe(201);
    const rendered = await renderOk('image', account.apiKey, { template_id: template.body.id, data: { logo: red }, image });
    expect(await centre(rendered.file.bytes)).toEqual([255, 0, 0]);
    const stranger = await newAccount();
    const foreign = await uploaded(stranger, '#00ff00');
    const refused = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { template_id: template.body.id, data: { logo: foreign }, image } });
    expect(expectError(refused, 400, 'image_asset_reference_invalid').details).toEqual([{ field: 'template_id', reason: 'invalid value' }]);
  });

  it('refuses foreign, unknown and malformed references after template expansion, and charges nothing', async () => {
    const account = await newAccount({ credits: 5 });
    const stranger = await newAccount();
    const foreign = await uploaded(stranger, '#00ff00');
    const refusals = [
      { html: fill(foreign), image },
      { html: fill(`asset://asset_${'0'.repeat(32)}`), image },
      { html: fill('asset://logo'), image },
      { html: fill(`ASSET://asset_${'A'.repeat(32)}`), image },
      { html: fill(`asset://asset_${'0'.repeat(32)}?v=1`), image },
      { html: fill('{{ logo }}'), data: { logo: foreign }, image },
      { html: `<div style="background-image:url(${foreign})"></div>`, pdf: {} },
    ];
    for (const body of refusals) {
      const kind = 'pdf' in body ? 'pdf' : 'image';
      const error = expectError(await api(`/v1/${kind}`, { method: 'POST', key: account.apiKey, body }), 400, 'image_asset_reference_invalid');
      expect(error.details).toEqual([{ field: 'html', reason: 'invalid value' }]);
    }
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('refuses images in PDF header and footer templates, with the field', async () => {
    const account = await newAccount();
    const red = await uploaded(account, '#ff0000');
    const cases = [
      [{ header_template: `<img src="${red}">` }, 'pdf.header_template'],
      [{ footer_template: '<img src="data:image/png;base64,AAAA">' }, 'pdf.footer_template'],
      [{ header_template: `<div style="background:url(${red})"></div>` }, 'pdf.header_template'],
    ] as const;
    for (const [pdf, field] of cases) {
      const response = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>x</p>', pdf: { display_header_footer: true, ...pdf } } });
      expect(expectError(response, 400, 'image_asset_header_unsupported').details).toEqual([{ field, reason: 'invalid value' }]);
    }
    // an image in the page itself is fine in a PDF
    const { job } = await renderOk('pdf', account.apiKey, { html: fill(red), pdf: { display_header_footer: true, header_template: '<span class="pageNumber"></span>' } });
    expect(job.status).toBe('succeeded');
  });

  it('checks references in template previews the same way', async () => {
    const account = await newAccount();
    const red = await uploaded(account, '#ff0000');
    const ok = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: '<img src="{{ src }}">', data: { src: red } } });
    expect(ok.body).toEqual({ html: `<img src="${red}">` });
    const stranger = await newAccount();
    const foreign = await uploaded(stranger, '#00ff00');
    const refused = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: '<img src="{{ src }}">', data: { src: foreign } } });
    expect(expectError(refused, 400, 'image_asset_reference_invalid').details).toEqual([{ field: 'source', reason: 'invalid value' }]);
  });
});
