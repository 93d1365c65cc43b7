import { aiCreditPrices } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { MessageFields, messageInput, outputIntent } from '../app/dashboard/ai/message-input.ts';
import { pricesOf } from '../app/dashboard/ai/prices.ts';

const fields = (extra: Record<string, unknown>) => MessageFields.parse({ idempotency_key: 'k', ...extra });

describe('AI message forms', () => {
  it('turns each kind of form input into the contract input', async () => {
    expect(await messageInput(fields({ kind: 'prompt', text: 'An invoice' }))).toEqual({ type: 'prompt', prompt: 'An invoice' });
    expect(await messageInput(fields({ kind: 'html', text: '<h1>Sale</h1>' }))).toEqual({ type: 'html', html: '<h1>Sale</h1>' });
    expect(await messageInput(fields({ kind: 'source', text: '<p>{{ x }}</p>' }))).toEqual({ type: 'source', source: '<p>{{ x }}</p>' });
    const image = new File([Buffer.from('abc')], 'a.png', { type: 'image/png' });
    expect(await messageInput(fields({ kind: 'image', image }))).toEqual({ type: 'image', base64: 'YWJj' });
  });

  it('names the field at fault when text or the image is missing, or words are too long', async () => {
    expect(await messageInput(fields({ kind: 'prompt', text: '   ' }))).toEqual({ error: 'missing field', field: 'text' });
    expect(await messageInput(fields({ kind: 'image', image: new File([], 'empty.png') }))).toEqual({ error: 'missing field', field: 'image' });
    expect(await messageInput(fields({ kind: 'html', text: 'x'.repeat(65_537) }))).toEqual({ error: 'invalid value', field: 'text' });
  });

  it('maps the output choice to an intent', () => {
    expect(outputIntent('auto')).toEqual({ type: 'auto' });
    expect(outputIntent('pdf')).toEqual({ type: 'pdf' });
    expect(outputIntent('webp')).toEqual({ type: 'image', format: 'webp' });
  });

  it('shows the prices acceptance charges: a build, an edit, an image, a canvas chat start, a source', () => {
    expect(pricesOf(false)).toEqual({ prompt: aiCreditPrices.build, html: aiCreditPrices.build, image: aiCreditPrices.image, source: 0 });
    expect(pricesOf(true)).toEqual({ prompt: aiCreditPrices.edit, html: aiCreditPrices.edit, image: aiCreditPrices.image, source: 0 });
    expect(pricesOf(true, true)).toEqual({ prompt: aiCreditPrices.blankChat, html: aiCreditPrices.blankChat, image: aiCreditPrices.blankChat, source: 0 });
  });
});
