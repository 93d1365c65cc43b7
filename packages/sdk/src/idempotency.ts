// Every create call that takes an Idempotency-Key gets one, so a retried call replays the job
// the first attempt admitted instead of rendering and charging twice (the contract's idempotency rule).
import type { Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';

export const idempotencyKeyHeader = 'Idempotency-Key';

type HeadersOf<Operation> = Operation extends { parameters: { header?: infer Headers } } ? NonNullable<Headers> : never;
type TakesIdempotencyKey<Operation> = [HeadersOf<Operation>] extends [never]
  ? false
  : typeof idempotencyKeyHeader extends keyof HeadersOf<Operation>
    ? true
    : false;
/** The POST paths of the contract that take the header. */
type IdempotentPostPath = {
  [Path in keyof paths]: paths[Path] extends { post: infer Operation } ? (TakesIdempotencyKey<Operation> extends true ? Path : never) : never;
}[keyof paths];

// `satisfies` makes the compiler list every such path of the generated contract, and nothing else
const idempotentPostPaths = {
  '/v1/pdf': true,
  '/v1/image': true,
  '/v1/batches': true,
  '/v1/carousels': true,
  '/v1/image-packs': true,
  '/v1/template-builds': true,
  '/v1/template-builds/{build_id}/messages': true,
  '/v1/templates/{template_id}/messages': true,
} as const satisfies Record<IdempotentPostPath, true>;

function takesIdempotencyKey(method: string, schemaPath: string): boolean {
  return method === 'POST' && Object.hasOwn(idempotentPostPaths, schemaPath);
}

/** Adds a fresh key (crypto.randomUUID) to a create call that has none; a key the caller set is kept. */
export const idempotencyKeyMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    if (!takesIdempotencyKey(request.method, schemaPath) || request.headers.has(idempotencyKeyHeader)) return undefined;
    request.headers.set(idempotencyKeyHeader, crypto.randomUUID());
    return request;
  },
};
