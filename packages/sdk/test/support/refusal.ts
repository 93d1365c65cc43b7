import { WebhookVerificationError } from '../../src/index.ts';

/** Why verification refused, or undefined when it accepted. */
export function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}
