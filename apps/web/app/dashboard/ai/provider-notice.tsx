import { Card } from '../../../src/dashboard/ui/card.tsx';

/** Said once at the top of each AI page while this installation has no AI model: words, HTML and images are hidden, a source still works. */
export function ProviderNotice() {
  return (
    <Card className="mb-6" data-testid="ai-not-set-up">
      <p className="text-sm font-medium text-slate-900">AI is not set up on this installation</p>
      <p className="mt-1 text-sm text-slate-700">
        Building from words, HTML or an image needs an AI model, and none is connected here. You can still paste a template source: it becomes the draft as written, at no cost. Whoever runs
        this installation can connect a model.
      </p>
    </Card>
  );
}
