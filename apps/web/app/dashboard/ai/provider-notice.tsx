import { errorDefinition } from '@svc/contracts';
import { ErrorState } from '../../../src/dashboard/ui/states.tsx';

/** What the API answers for model work while no provider is configured (503 provider_unavailable); a source still works. */
export function ProviderNotice() {
  return (
    <ErrorState title={errorDefinition('provider_unavailable').message} code="provider_unavailable" className="mb-6">
      This installation has no AI model configured (SVC_AI_BASE_URL), so words, HTML and images cannot be sent (the API answers 503). A template source still works: it becomes the draft as
      written, at no cost.
    </ErrorState>
  );
}
