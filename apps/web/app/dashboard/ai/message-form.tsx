'use client';
// One AI message: words, HTML, an image or a template source, with its output and (when the
// page offers one) a brand kit. Shows what the message will reserve before it is sent, from the
// prices the server computed with the core's pricing rules.
import { type ReactNode, useState } from 'react';
import type { SessionAction } from '../../../src/dashboard/actions.ts';
import { ActionForm } from '../../../src/dashboard/ui/action-form.tsx';
import { Field, Input, Label, Select, Textarea } from '../../../src/dashboard/ui/field.tsx';
import { LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import type { InputKind } from './message-input.ts';

const kindLabels: Record<InputKind, string> = {
  prompt: 'Words',
  html: 'HTML',
  image: 'An image',
  source: 'Template source (no AI)',
};

const textLabels: Record<Exclude<InputKind, 'image'>, { label: string; hint: string }> = {
  prompt: { label: 'Describe the template', hint: 'E.g. "An invoice with our logo, a table of items and a total".' },
  html: { label: 'HTML to start from', hint: 'The model turns it into a template in your brand.' },
  source: { label: 'Template source', hint: 'A whole HTML document with nunjucks; it becomes the draft as written, at no cost and without a model.' },
};

/** The core's image upload rules, checked again on the server: PNG, JPEG or WebP, still, up to 10 MiB. */
const maxImageBytes = 10 * 1024 * 1024;

export interface MessageFormProps<T> {
  action: SessionAction<T>;
  csrfToken: string;
  /** Hidden fields naming the build or template, and the message's Idempotency-Key (new per page render). */
  hidden: Record<string, string>;
  /** Credits each kind of input reserves (0 for a source). */
  prices: Record<InputKind, number>;
  /** A brand kit chooser or other fields placed before the input. */
  children?: ReactNode;
  submitLabel: string;
  /** When no AI provider is configured, only a source can be sent: the other inputs and "let the model choose" are not offered. */
  providerAvailable: boolean;
  /** Offer "keep the draft's output" instead of "let the model choose". */
  keepOutput?: boolean;
  idPrefix: string;
}

export function MessageForm<T>({ action, csrfToken, hidden, prices, children, submitLabel, providerAvailable, keepOutput, idPrefix }: MessageFormProps<T>) {
  const [kind, setKind] = useState<InputKind>(providerAvailable ? 'prompt' : 'source');
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  // controlled, so a refused message keeps what was typed (React resets uncontrolled fields after an action)
  const [text, setText] = useState('');
  // with no model there is no one to choose: a source's draft is a PDF unless another output is picked
  const offerAuto = keepOutput || providerAvailable;
  const [output, setOutput] = useState(offerAuto ? 'auto' : 'pdf');
  const id = (name: string) => `${idPrefix}-${name}`;
  const price = prices[kind];
  const kinds = (Object.keys(kindLabels) as InputKind[]).filter((each) => providerAvailable || each === 'source');
  return (
    <ActionForm action={action} csrfToken={csrfToken} submitLabel={submitLabel} pendingLabel="Sending…" onSuccess={() => setText('')} className="grid gap-4">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      {kinds.length === 1 ? (
        <input type="hidden" name="kind" value={kind} />
      ) : (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Start from</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {kinds.map((each) => (
              <label key={each} className="inline-flex items-center gap-2 text-sm">
                <input type="radio" name="kind" value={each} checked={kind === each} onChange={() => setKind(each)} className="size-4 accent-indigo-600" />
                {kindLabels[each]}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {kind === 'image' ? (
        <Field id={id('image')} label="Image" hint="PNG, JPEG or WebP, still, up to 10 MiB and 7680 × 4320. The result is inspired by it, not a copy.">
          <Input
            id={id('image')}
            name="image"
            type="file"
            required
            accept="image/png,image/jpeg,image/webp"
            aria-describedby={id('image-hint')}
            aria-invalid={imageProblem ? true : undefined}
            onChange={(event) => {
              const file = event.target.files?.[0];
              const problem = !file ? null : file.size > maxImageBytes ? 'This image is over 10 MiB.' : !/^image\/(png|jpeg|webp)$/.test(file.type) ? 'Choose a PNG, JPEG or WebP image.' : null;
              setImageProblem(problem);
              event.target.setCustomValidity(problem ?? '');
            }}
            className="max-w-md"
          />
          {imageProblem ? <p className="text-xs text-red-800">{imageProblem}</p> : null}
        </Field>
      ) : (
        <Field id={id('text')} label={textLabels[kind].label} hint={textLabels[kind].hint}>
          <Textarea id={id('text')} name="text" required value={text} onChange={(event) => setText(event.target.value)} rows={kind === 'prompt' ? 3 : 8} aria-describedby={id('text-hint')} className={kind === 'prompt' ? 'font-sans' : undefined} />
        </Field>
      )}
      <div className="max-w-xs space-y-1">
        <Label htmlFor={id('output')}>Output</Label>
        <Select id={id('output')} name="output" value={output} onChange={(event) => setOutput(event.target.value)}>
          {offerAuto ? <option value="auto">{keepOutput ? "Keep the draft's output" : 'Let the model choose'}</option> : null}
          <option value="pdf">PDF document</option>
          <option value="png">PNG image</option>
          <option value="jpeg">JPEG image</option>
          <option value="webp">WebP image</option>
        </Select>
      </div>
      <p className="text-sm text-slate-700" data-testid="message-price" aria-live="polite">
        {price === 0 ? (
          'This message costs nothing: a source needs no model.'
        ) : (
          <>
            Sending reserves <strong><LocalNumber value={price} /> credits</strong>; they are charged when the draft is ready and released if it fails or you cancel.
          </>
        )}
      </p>
    </ActionForm>
  );
}
