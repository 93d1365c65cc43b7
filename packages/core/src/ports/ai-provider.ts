/**
 * The AI model, as the template pipeline sees it: chat completions that answer text, and
 * image generation. The service's implementation speaks the OpenAI-compatible protocol
 * through the egress policy (ai/openai-compatible-provider.ts); null in the context when no
 * provider is configured.
 */
export interface AiProvider {
  /** Whether the model reads images in messages (source images, rendered candidates). */
  readonly vision: boolean;
  complete(request: AiCompletionRequest): Promise<string>;
}

export type AiContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface AiChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | AiContentPart[];
}

export interface AiCompletionRequest {
  messages: AiChatMessage[];
  /** A JSON schema the reply must follow, sent as structured output; the reply is validated by the caller either way. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

/** Stable codes of a failed call; they become a message's failure_code and are safe to show. */
export type AiProviderFailure =
  | 'provider_timeout'
  | 'provider_rate_limited'
  | 'provider_http_error'
  | 'provider_unreachable'
  | 'provider_refused_by_egress'
  | 'provider_reply_invalid';

export class AiProviderError extends Error {
  readonly code: AiProviderFailure;
  constructor(code: AiProviderFailure) {
    super(code);
    this.name = 'AiProviderError';
    this.code = code;
  }
}
