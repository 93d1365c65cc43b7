// Names for the generated types the hand-written layer and its callers use. Each is read from
// the operation that carries it, so a regenerated contract flows through without edits here.
import type { components, paths } from './generated/openapi.ts';

type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
type JsonAnswer<Operation, Status extends number> = Operation extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** The body of POST /v1/pdf: raw HTML, a stateless template with data, or a saved template. */
export type PdfRequest = JsonBody<paths['/v1/pdf']['post']>;
/** The body of POST /v1/image. */
export type ImageRequest = JsonBody<paths['/v1/image']['post']>;
export type PdfJob = JsonAnswer<paths['/v1/pdf/{id}']['get'], 200>;
export type ImageJob = JsonAnswer<paths['/v1/image/{id}']['get'], 200>;
export type RenderJob = PdfJob | ImageJob;
export type JobStatus = RenderJob['status'];

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
/** Every code an error answer of /v1 can carry. */
export type ErrorCode = ErrorEnvelope['error']['code'];
export type FieldDetail = components['schemas']['FieldDetail'];

/** A webhook event kind (render.succeeded, render.failed, render.cancelled). */
export type WebhookEventType = components['schemas']['Webhook']['events'][number];
