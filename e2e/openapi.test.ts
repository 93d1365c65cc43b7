import SwaggerParser from '@apidevtools/swagger-parser';
import { operations } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { api, newAccount } from './support/api.ts';
import { renderOk } from './support/files.ts';

describe('GET /v1/openapi.json', () => {
  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    const response = await api('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(response.body))).resolves.toBeTruthy();
  });

  it('describes every served operation with its request, responses and the error envelope', async () => {
    const { body } = await api('/v1/openapi.json');
    for (const operation of operations) {
      const described = body.paths[operation.path]?.[operation.method];
      expect(described, `${operation.method} ${operation.path}`).toBeDefined();
      expect(described.operationId).toBe(operation.operationId);
      for (const status of Object.keys(operation.responses)) expect(described.responses[status]).toBeDefined();
      if (operation.body) expect(described.requestBody.content['application/json'].schema).toBeDefined();
      // a published example is a body the server takes (reference pages copy it into their requests)
      if (operation.body?.example !== undefined) {
        expect(described.requestBody.content['application/json'].example).toEqual(operation.body.example);
        expect(operation.body.schema.safeParse(operation.body.example).success, operation.operationId).toBe(true);
      }
      if (operation.auth === 'bearer') {
        expect(described.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
        expect(described.responses['403'].description).toContain('account_suspended');
      }
    }
    const envelope = body.components.schemas.ErrorEnvelope;
    expect(envelope.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'request_id']));
    // the REST error enum holds what /v1 answers with; the GraphQL API's own codes stay out
    const codes: string[] = envelope.properties.error.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(['invalid_request', 'unauthorized', 'rate_limited', 'overloaded']));
    expect(codes).not.toContain('query_too_complex');
    expect(codes).not.toContain('introspection_disabled');
    const createKey = body.paths['/v1/keys'].post;
    expect(createKey.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/NewApiKey');
    expect(Object.keys(createKey.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415']));
    // raw-body uploads name their media types instead of a JSON schema; binary answers likewise
    const upload = body.paths['/v1/image-assets'].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect(upload.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/UploadedImage');
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['400', '409', '413', '422', '429']));
    expect(upload.responses['415']).toBeUndefined();
    const content = body.paths['/v1/image-assets/{id}/content'].get;
    expect(Object.keys(content.responses['200'].content)).toEqual(['image/png', 'image/jpeg', 'image/webp', 'font/woff2']);
    expect(content.responses['200'].content['image/png'].schema).toEqual({ type: 'string', format: 'binary' });
    const preview = body.paths['/v1/image-assets/preview'].post;
    expect(preview.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ImageUrlPreviewRequest');
    // each render body is exactly one of three closed shapes, and each names the others' fields as never allowed
    for (const kind of ['Pdf', 'Image']) {
      const shapes = ['Raw', 'Stateless', 'Saved'].map((shape) => `${kind}${shape}Request`);
      expect(body.components.schemas[`${kind}Request`].oneOf).toEqual(shapes.map((id) => ({ $ref: `#/components/schemas/${id}` })));
      for (const id of shapes) expect(body.components.schemas[id].additionalProperties, id).toBe(false);
    }
    expect(body.components.schemas.PdfRawRequest.required).toEqual(['html']);
    expect(body.components.schemas.PdfRawRequest.properties.template_id).toBe(false);
    expect(body.components.schemas.PdfStatelessRequest.required).toEqual(['html', 'data']);
    expect(body.components.schemas.ImageSavedRequest.required).toEqual(['template_id', 'data', 'image']);
    expect(body.components.schemas.ImageRawRequest.properties.size_id).toBe(false);
    expect(body.components.schemas.PdfJob.properties.artifact.anyOf[0].properties.media_type.enum).toEqual(['application/pdf']);
    expect(body.components.schemas.ImageJob.properties.artifact.anyOf[0].properties.media_type.enum).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    const list = body.paths['/v1/keys'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['limit', 'cursor']);
  });

  it('declares the media types a download really answers with, so a validating gateway passes every file', async () => {
    const { body } = await api('/v1/openapi.json');
    const declared = body.paths['/v1/downloads/{token}'].get.responses['200'].content;
    expect(Object.keys(declared)).toEqual(['application/pdf', 'image/png', 'image/jpeg', 'image/webp']);
    for (const media of Object.values(declared)) expect(media).toEqual({ schema: { type: 'string', format: 'binary' } });

    const account = await newAccount();
    const html = '<p style="font-size:40px">Invoice 7</p>';
    const renders = [
      await renderOk('pdf', account.apiKey, { html }),
      await renderOk('image', account.apiKey, { html, image: { format: 'png', width: 320, height: 200 } }),
      await renderOk('image', account.apiKey, { html, image: { format: 'jpeg', width: 320, height: 200 } }),
      await renderOk('image', account.apiKey, { html, image: { format: 'webp', width: 320, height: 200 } }),
    ];
    const answered = renders.map(({ file }) => file.contentType);
    expect(answered).toEqual(['application/pdf', 'image/png', 'image/jpeg', 'image/webp']);
    for (const type of answered) expect(Object.keys(declared)).toContain(type);
    expect(renders.map(({ file }) => file.status)).toEqual([200, 200, 200, 200]);
  }, 120_000);
});
