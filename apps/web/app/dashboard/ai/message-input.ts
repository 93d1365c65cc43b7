// What the AI forms send, turned into the contract's input and output intent. The core checks
// everything else (sizes, the image rules, a source's template checks) as the API does.
import { maxAiTextChars, type TemplateBuildInput, type TemplateOutputIntent } from '@svc/contracts';
import { z } from 'zod';

export const inputKinds = ['prompt', 'html', 'image', 'source'] as const;
export type InputKind = (typeof inputKinds)[number];
export const outputChoices = ['auto', 'pdf', 'png', 'jpeg', 'webp'] as const;

export const MessageFields = z.object({
  idempotency_key: z.string().min(1).max(255),
  kind: z.enum(inputKinds),
  text: z.string().max(1_048_576).optional(),
  image: z.instanceof(File).optional(),
  output: z.enum(outputChoices).default('auto'),
});

/** The contract's input from the form: text for words, HTML and a source; the file for an image (sent as base64). */
export async function messageInput(fields: z.output<typeof MessageFields>): Promise<TemplateBuildInput | { error: 'missing field' | 'invalid value'; field: string }> {
  if (fields.kind === 'image') {
    if (!fields.image || fields.image.size === 0) return { error: 'missing field', field: 'image' };
    return { type: 'image', base64: Buffer.from(await fields.image.arrayBuffer()).toString('base64') };
  }
  const text = fields.text ?? '';
  if (text.trim() === '') return { error: 'missing field', field: 'text' };
  if (fields.kind !== 'source' && text.length > maxAiTextChars) return { error: 'invalid value', field: 'text' };
  if (fields.kind === 'prompt') return { type: 'prompt', prompt: text };
  if (fields.kind === 'html') return { type: 'html', html: text };
  return { type: 'source', source: text };
}

export function outputIntent(choice: (typeof outputChoices)[number]): TemplateOutputIntent {
  if (choice === 'auto' || choice === 'pdf') return { type: choice };
  return { type: 'image', format: choice };
}
