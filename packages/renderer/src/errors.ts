// Job errors carry a category (the contract's public taxonomy of job errors) and a stable snake_case code.
// The message is for logs only: the job pipeline must never show it to a customer.

export type RenderErrorCategory =
  | 'invalid_input'
  | 'unsafe_asset'
  | 'resource_limit'
  | 'timeout'
  | 'renderer_failure'
  | 'internal_failure';

export class RenderError extends Error {
  readonly category: RenderErrorCategory;
  readonly code: string;

  constructor(category: RenderErrorCategory, code: string, message?: string, options?: { cause?: unknown }) {
    super(message ?? `${category}: ${code}`, options);
    this.name = 'RenderError';
    this.category = category;
    this.code = code;
  }
}

export function isRenderError(error: unknown): error is RenderError {
  return error instanceof RenderError;
}
