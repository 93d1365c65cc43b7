import { buildOpenApiDocument, getOpenApiOperation, operations } from '@svc/contracts';
import { handle } from '../../../src/http/handle.ts';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = handle(getOpenApiOperation, async () => {
  document ??= buildOpenApiDocument(operations, { serverUrl: process.env.SVC_PUBLIC_URL });
  return { status: 200, body: document, headers: { 'cache-control': 'public, max-age=300' } };
});
