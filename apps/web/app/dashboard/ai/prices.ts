// What each kind of message reserves, asked of the core's pricing rules (the same function
// acceptance uses), so the page shows the price the message will actually hold.
import type { TemplateBuildInput } from '@svc/contracts';
import { priceOf } from '@svc/core';
import { inputKinds, type InputKind } from './message-input.ts';

/** A stand-in input of each kind: the price depends on the kind alone. */
const sampleInputs: Record<InputKind, TemplateBuildInput> = {
  prompt: { type: 'prompt', prompt: '.' },
  html: { type: 'html', html: '.' },
  image: { type: 'image', base64: '' },
  source: { type: 'source', source: '.' },
};

/** Prices of a build's first message (hasDraft false) or of an edit; `firstOfBlank` is a chat's first model message on a canvas template (50). */
export function pricesOf(hasDraft: boolean, firstOfBlank = false): Record<InputKind, number> {
  return Object.fromEntries(inputKinds.map((kind) => [kind, firstOfBlank && kind !== 'source' ? 50 : priceOf(sampleInputs[kind], hasDraft)])) as Record<InputKind, number>;
}
