// The AI provider over the OpenAI-compatible chat completions protocol (hosted APIs, Ollama,
// vLLM, the llama.cpp server). Plain requests through the service's egress policy rather
// than an SDK: every call is vetted like a webhook (resolved addresses, pinned connection,
// no redirects, bounded time and size), which an SDK's own fetch would bypass.
import { egressRequest } from '../egress/egress-request.ts';
import { aiProviderEgressRules, type EgressPolicy } from '../egress/outgoing-url-policy.ts';
import { type AiCompletionRequest, type AiProvider, AiProviderError } from '../ports/ai-provider.ts';
import type { Logger } from '../shared/context.ts';
import type { AiSettings } from '../shared/config.ts';

/** A reply holds a template source of up to 1 MiB, JSON-escaped inside JSON. */
const maxReplyBytes = 8 * 1024 * 1024;
const backoffMs = [1000, 3000, 9000];
/** The longest wait between two tries (a longer Retry-After is cut to it). */
export const maxRetryWaitMs = 10_000;

export interface OpenAiCompatibleOptions {
  settings: AiSettings;
  policy: EgressPolicy;
  logger: Logger;
  /** Waits between tries; tests of the retry schedule need not sleep for real. */
  sleep?: (ms: number) => Promise<void>;
}

export function openAiCompatibleProvider(options: OpenAiCompatibleOptions): AiProvider {
  const { settings, policy, logger } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // servers that refuse response_format are asked without it from then on
  let structuredOutput = true;

  async function post(body: Record<string, unknown>) {
    return egressRequest(`${settings.baseUrl}/chat/completions`, {
      policy,
      rules: aiProviderEgressRules,
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        accept: 'application/json',
        'user-agent': 'svc-ai/1',
        'content-type': 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      timeoutMs: settings.timeoutMs,
      maxBytes: maxReplyBytes,
      answer: { read: 'body', maxRedirects: 0 },
    });
  }

  return {
    vision: settings.vision,
    async complete(request: AiCompletionRequest): Promise<string> {
      let failure: AiProviderError = new AiProviderError('provider_unreachable');
      for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
        const body: Record<string, unknown> = { model: settings.model, messages: request.messages, temperature: 0.2 };
        const structured = structuredOutput && request.jsonSchema !== undefined;
        if (structured && request.jsonSchema) {
          body.response_format = { type: 'json_schema', json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: false } };
        }
        const result = await post(body);
        if (result.ok) return replyText(result.bytes);
        // the log names the failure and the status, never the conversation
        logger.warn('AI provider call failed', { attempt, failure: 'refusal' in result ? result.refusal : result.failure, status: 'status' in result ? result.status : undefined });
        if ('refusal' in result) throw new AiProviderError('provider_refused_by_egress');
        if (result.failure === 'http_status' && structured && (result.status === 400 || result.status === 422)) {
          structuredOutput = false;
          attempt--;
          continue;
        }
        failure = classify(result.failure, result.status);
        const retryable = failure.code === 'provider_rate_limited' || failure.code === 'provider_unreachable' || (result.status ?? 0) >= 500;
        if (!retryable || attempt === settings.maxAttempts) throw failure;
        await sleep(waitBefore(attempt, result.retryAfter));
      }
      throw failure;
    },
  };
}

function classify(failure: string, status: number | undefined): AiProviderError {
  if (failure === 'timeout') return new AiProviderError('provider_timeout');
  if (failure === 'http_status' && status === 429) return new AiProviderError('provider_rate_limited');
  if (failure === 'http_status' || failure === 'too_many_redirects' || failure === 'response_too_large') return new AiProviderError('provider_http_error');
  return new AiProviderError('provider_unreachable');
}

function waitBefore(attempt: number, retryAfter: string | undefined): number {
  const fallback = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 1000;
  if (!retryAfter) return fallback;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxRetryWaitMs);
  return fallback;
}

/** The assistant's text of a chat completion; anything else is an invalid reply. */
function replyText(bytes: Buffer): string {
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { choices?: { message?: { content?: unknown } }[] };
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content === 'string') return content;
  } catch {
    // not JSON at all
  }
  throw new AiProviderError('provider_reply_invalid');
}
