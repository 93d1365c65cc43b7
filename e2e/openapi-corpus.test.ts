import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, expectError, newAccount, type TestAccount } from './support/api.ts';

const templateId = `tpl_${'0'.repeat(32)}`;
const keyId = `key_${'0'.repeat(32)}`;
const brandKitId = `kit_${'0'.repeat(32)}`;
const testimonial = (overrides: Record<string, unknown>) => ({
  name: 'Ada Lovelace',
  company: 'Analytical Engines',
  quote: 'It renders our invoices exactly as we drew them.',
  permission: true,
  captcha_token: 'unsolved',
  ...overrides,
});
const publicHook = 'https://93.184.215.14/hooks/render';
const canvas = (width: number, height: number) => `<meta name="svc-canvas" content="${width}x${height}"><div data-svc-page="p">x</div>`;
const size = (overrides: Record<string, unknown>) => ({ id: 'square', name: 'Square', width: 1080, height: 1080, status: 'edited', source: canvas(1080, 1080), ...overrides });

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** The path as sent; `template` is its contract path when they differ. */
  path: string;
  template?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent from the service's own origin (routes only its pages may call). */
  origin?: boolean;
  /** The refusal the server answers with (default 400 invalid_request). */
  refusal?: { status: number; code: string };
}

const badRequests: Case[] = [
  { name: 'webhook url over http', method: 'POST', path: '/v1/webhooks', body: { url: 'http://93.184.215.14/hook' } },
  { name: 'webhook with a repeated event', method: 'POST', path: '/v1/webhooks', body: { url: publicHook, events: ['render.failed', 'render.failed'] } },
  { name: 'webhook with no events', method: 'POST', path: '/v1/webhooks', body: { url: publicHook, events: [] } },
  { name: 'webhook list with a page size', method: 'GET', path: '/v1/webhooks', query: { limit: '5' } },
  { name: 'template with a repeated tag', method: 'POST', path: '/v1/templates', body: { source: '<p>x</p>', tags: ['a', 'a'] } },
  { name: 'template with a blank tag', method: 'POST', path: '/v1/templates', body: { source: '<p>x</p>', tags: ['   '] } },
  { name: 'template with a 41-character tag', method: 'POST', path: '/v1/templates', body: { source: '<p>x</p>', tags: ['t'.repeat(41)] } },
  { name: 'template with a 121-character name', method: 'POST', path: '/v1/templates', body: { source: '<p>x</p>', name: 'n'.repeat(121) } },
  {
    name: 'saved size 640.5 wide',
    method: 'POST',
    path: '/v1/templates',
    body: { source: canvas(1080, 1080), input_mode: 'blank', sizes: [size({ width: 640.5 })] },
    refusal: { status: 400, code: 'template_size_invalid_dimensions' },
  },
  {
    name: 'saved size id SQ',
    method: 'POST',
    path: '/v1/templates',
    body: { source: canvas(1080, 1080), input_mode: 'blank', sizes: [size({ id: 'SQ' })] },
    refusal: { status: 400, code: 'template_size_invalid_id' },
  },
  {
    name: '21 saved sizes',
    method: 'POST',
    path: '/v1/templates',
    body: { source: canvas(1080, 1080), input_mode: 'blank', sizes: Array.from({ length: 21 }, (_, index) => size({ id: `s${index}` })) },
    refusal: { status: 400, code: 'template_sizes_too_many' },
  },
  { name: 'template schema that is a string', method: 'POST', path: '/v1/templates', body: { source: '<p>x</p>', schema: 'object' } },
  { name: 'template list search with a control character', method: 'GET', path: '/v1/templates', query: { q: 'a\u0001b' } },
  { name: 'image pack size SQ', method: 'POST', path: '/v1/image-packs', body: { template_id: templateId, format: 'png', sizes: ['SQ'] }, headers: { 'idempotency-key': 'corpus-1' } },
  { name: 'image pack with a repeated size', method: 'POST', path: '/v1/image-packs', body: { template_id: templateId, format: 'png', sizes: ['story', 'story'] }, headers: { 'idempotency-key': 'corpus-2' } },
  { name: 'brand kit with a blank name', method: 'POST', path: '/v1/brand-kits', body: { name: '   ' }, refusal: { status: 422, code: 'brand_kit_name_invalid' } },
  { name: 'brand kit name of 101 characters', method: 'POST', path: '/v1/brand-kits', body: { name: 'k'.repeat(101) }, refusal: { status: 422, code: 'brand_kit_name_invalid' } },
  { name: 'brand kit colour of 5 digits', method: 'POST', path: '/v1/brand-kits', body: { name: 'Acme', colours: ['#12345'] }, refusal: { status: 422, code: 'brand_kit_colours_invalid' } },
  { name: 'brand kit with a repeated colour', method: 'POST', path: '/v1/brand-kits', body: { name: 'Acme', colours: ['#aabbcc', '#aabbcc'] }, refusal: { status: 422, code: 'brand_kit_colours_invalid' } },
  { name: 'brand kit with 17 colours', method: 'POST', path: '/v1/brand-kits', body: { name: 'Acme', colours: Array.from({ length: 17 }, (_, index) => `#0000${String(index).padStart(2, '0')}`) }, refusal: { status: 422, code: 'brand_kit_colours_invalid' } },
  { name: 'brand kit with blank tone guidance', method: 'POST', path: '/v1/brand-kits', body: { name: 'Acme', tone_guidance: '   ' }, refusal: { status: 422, code: 'brand_kit_tone_invalid' } },
  { name: 'brand kit with 501 characters of tone guidance', method: 'POST', path: '/v1/brand-kits', body: { name: 'Acme', tone_guidance: 'x'.repeat(501) }, refusal: { status: 422, code: 'brand_kit_tone_invalid' } },
  { name: 'brand kit update with no field', method: 'PATCH', path: `/v1/brand-kits/${brandKitId}`, template: '/v1/brand-kits/{brand_kit_id}', body: {}, refusal: { status: 400, code: 'brand_kit_patch_empty' } },
  { name: 'image preview of an ftp URL', method: 'POST', path: '/v1/image-assets/preview', body: { url: 'ftp://example.com/a.png' }, refusal: { status: 400, code: 'image_url_invalid' } },
  { name: 'testimonial with a blank name', method: 'POST', path: '/v1/testimonials', body: testimonial({ name: '    ' }), origin: true, refusal: { status: 400, code: 'testimonial_invalid' } },
  { name: 'testimonial quote of 20 characters, 19 of them spaces', method: 'POST', path: '/v1/testimonials', body: testimonial({ quote: `x${' '.repeat(19)}` }), origin: true, refusal: { status: 400, code: 'testimonial_invalid' } },
  { name: 'key with an empty name', method: 'POST', path: '/v1/keys', body: { name: '' } },
  { name: 'key cap of zero', method: 'PATCH', path: `/v1/keys/${keyId}`, template: '/v1/keys/{key_id}', body: { monthly_overage_cap: 0 } },
  { name: 'key list of 101', method: 'GET', path: '/v1/keys', query: { limit: '101' } },
];

const html = '<p>Invoice 7</p>';
const renderBadRequests: Case[] = [
  { name: 'pdf width of 10 furlongs', method: 'POST', path: '/v1/pdf', body: { html, pdf: { width: '10 furlongs', height: '10in' } } },
  { name: 'pdf top margin of -1mm', method: 'POST', path: '/v1/pdf', body: { html, pdf: { margins: { top: '-1mm' } } } },
  { name: 'pdf width without height', method: 'POST', path: '/v1/pdf', body: { html, pdf: { width: '8in' } } },
  { name: 'pdf format with width', method: 'POST', path: '/v1/pdf', body: { html, pdf: { format: 'A4', width: '8in', height: '10in' } } },
  { name: 'reference with a control character', method: 'POST', path: '/v1/pdf', body: { html, reference: 'order\u00017' } },
  { name: 'filename a..b', method: 'POST', path: '/v1/pdf', body: { html, filename: 'a..b' } },
  { name: 'filename with a trailing space', method: 'POST', path: '/v1/pdf', body: { html, filename: 'name ' } },
  { name: 'repeated pages', method: 'POST', path: '/v1/pdf', body: { template_id: templateId, data: {}, pages: ['a', 'a'] } },
  { name: 'pdf password of 128 characters', method: 'POST', path: '/v1/pdf', body: { html, pdf: { password: 'p'.repeat(128) } } },
  { name: 'png with a quality', method: 'POST', path: '/v1/image', body: { html, image: { format: 'png', quality: 80 } } },
  { name: 'jpeg with transparency', method: 'POST', path: '/v1/image', body: { html, image: { format: 'jpeg', transparent: true } } },
  { name: 'empty image options', method: 'POST', path: '/v1/image', body: { html, image: {} } },
  { name: 'empty javascript options', method: 'POST', path: '/v1/pdf', body: { html, javascript: {} } },
];

const goodRequests: (Case & { status: number })[] = [
  { name: 'https webhook with two events', method: 'POST', path: '/v1/webhooks', body: { url: publicHook, events: ['render.failed', 'render.succeeded'] }, status: 201 },
  { name: 'template with trimmed tags and name', method: 'POST', path: '/v1/templates', body: { source: '<p>Invoice</p>', name: ' Invoice ', tags: [' a ', 'b'], schema: { type: 'object' } }, status: 201 },
  { name: 'template with a saved size', method: 'POST', path: '/v1/templates', body: { source: canvas(1080, 1080), input_mode: 'blank', sizes: [size({ id: 'story', width: 1080, height: 1920, source: canvas(1080, 1920) })] }, status: 201 },
  { name: 'brand kit with colours in either case', method: 'POST', path: '/v1/brand-kits', body: { name: ' Acme ', colours: ['#AABBCC', '#001122'], tone_guidance: 'Plain words.' }, status: 201 },
  { name: 'key with a name', method: 'POST', path: '/v1/keys', body: { name: 'ci' }, status: 201 },
  { name: 'key list of 5', method: 'GET', path: '/v1/keys', query: { limit: '5' }, status: 200 },
  { name: 'template list search', method: 'GET', path: '/v1/templates', query: { q: 'invoice', status: 'active' }, status: 200 },
];

let account: TestAccount;
let contract: any;
let ajv: Ajv2020;
const contractId = 'https://contract.invalid/openapi.json';

beforeAll(async () => {
  account = await newAccount();
  contract = (await api('/v1/openapi.json')).body;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: contractId, components: contract.components });
});

/** The operation's own JSON Schema for its body, its $refs pointed at the contract's components. */
function bodySchema(request: Case): object {
  const operation = contract.paths[request.template ?? request.path][request.method.toLowerCase()];
  const schema = operation.requestBody.content['application/json'].schema;
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${contractId}#/components/`));
}

/** Problems the contract finds in a request's body and query; empty when it accepts them. */
function contractProblems(request: Case): string[] {
  const problems: string[] = [];
  if (request.body !== undefined) {
    const validate = ajv.compile(bodySchema(request));
    if (!validate(request.body)) problems.push(...(validate.errors ?? []).map((error) => `body${error.instancePath} ${error.message}`));
  }
  const parameters: { name: string; in: string; schema: object }[] = contract.paths[request.template ?? request.path][request.method.toLowerCase()].parameters ?? [];
  for (const [name, value] of Object.entries(request.query ?? {})) {
    const declared = parameters.find((parameter) => parameter.in === 'query' && parameter.name === name);
    if (!declared) {
      problems.push(`query ${name} is not a declared parameter`);
      continue;
    }
    // a query value is text: a numeric parameter is checked on its number
    const typed = 'type' in declared.schema && declared.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    const validate = ajv.compile(declared.schema);
    if (!validate(typed)) problems.push(`query ${name} ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

function send(request: Case) {
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  const headers = { ...request.headers, ...(request.origin ? { origin: new URL(baseUrl()).origin } : {}) };
  return api(`${request.path}${query}`, { method: request.method, key: account.apiKey, body: request.body, headers });
}

describe('bad requests: the server and its contract refuse them alike', () => {
  it.each([...badRequests, ...renderBadRequests].map((request) => [request.name, request] as const))('%s', async (_name, request) => {
    const refusal = request.refusal ?? { status: 400, code: 'invalid_request' };
    expectError(await send(request), refusal.status, refusal.code);
    expect(contractProblems(request)).not.toEqual([]);
  });
});

describe('good requests: the server and its contract accept them alike', () => {
  it.each(goodRequests.map((request) => [request.name, request] as const))('%s', async (_name, request) => {
    expect(contractProblems(request)).toEqual([]);
    const response = await send(request);
    expect(response.status, response.text.slice(0, 300)).toBe(request.status);
  });
});

/** Path segments that name nothing: the server answers 404 and the contract's parameter schema refuses them. */
const unknownSegments: { method: 'GET' | 'POST'; template: string; path: string; parameter: string; value: string }[] = [
  ...['abc', '0', '1.5', '99999999999'].map((value) => ({
    method: 'GET' as const,
    template: '/v1/templates/{template_id}/versions/{version}',
    path: `/v1/templates/${templateId}/versions/${value}`,
    parameter: 'version',
    value,
  })),
  ...['batches', 'carousels', 'image-packs'].flatMap((kind) => [
    { method: 'POST' as const, template: `/v1/${kind}/{id}/retry`, path: `/v1/${kind}/archive/retry`, parameter: 'id', value: 'archive' },
    { method: 'GET' as const, template: `/v1/${kind}/archive/{token}`, path: `/v1/${kind}/archive/not-a-token`, parameter: 'token', value: 'not-a-token' },
  ]),
];

describe('path parameters: what the server cannot find, the contract does not allow', () => {
  it.each(unknownSegments.map((segment) => [`${segment.method} ${segment.path}`, segment] as const))('%s', async (_name, segment) => {
    expectError(await api(segment.path, { method: segment.method, key: account.apiKey, headers: { 'idempotency-key': 'corpus-path' } }), 404, 'not_found');
    const declared = contract.paths[segment.template][segment.method.toLowerCase()].parameters.find(
      (parameter: { in: string; name: string }) => parameter.in === 'path' && parameter.name === segment.parameter,
    );
    // a path segment is text: an integer parameter is checked on the number it spells, if it spells one
    const value = declared.schema.type === 'integer' && /^-?\d+(\.\d+)?$/.test(segment.value) ? Number(segment.value) : segment.value;
    expect(ajv.validate(declared.schema, value), `${segment.parameter} ${segment.value}`).toBe(false);
  });
});
