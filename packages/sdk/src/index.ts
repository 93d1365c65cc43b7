export { createRenderingClient, type RenderingClient, type RenderingClientOptions } from './client.ts';
export type { DownloadOptions } from './downloads.ts';
export { RenderingApiError, RenderWaitError } from './errors.ts';
export type { components, operations, paths } from './generated/openapi.ts';
export type { ApiClient, JobOf, RenderOptions, WaitOptions } from './jobs.ts';
export type { FetchLike, RetryOptions } from './retries.ts';
export type { ErrorCode, FieldDetail, ImageJob, ImageRequest, JobStatus, PdfJob, PdfRequest, RenderJob, WebhookEventType } from './types.ts';
export {
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationFailure,
  webhookSignatureHeader,
} from './webhooks.ts';
