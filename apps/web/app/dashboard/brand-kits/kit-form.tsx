'use client';
// A kit's name, colours and tone guidance. Each colour has a picker and its hex text, kept in
// step; the hex text is what is sent (the core checks and lowercases it).
import { useState } from 'react';
import type { SessionAction } from '../../../src/dashboard/actions.ts';
import { ActionForm } from '../../../src/dashboard/ui/action-form.tsx';
import { Button } from '../../../src/dashboard/ui/button.tsx';
import { Field, Input, Textarea } from '../../../src/dashboard/ui/field.tsx';

/** The service keeps at most 16 colours per kit. */
const maxColours = 16;
const hexPattern = /^#[0-9a-fA-F]{6}$/;

export interface KitFormProps<T> {
  action: SessionAction<T>;
  csrfToken: string;
  submitLabel: string;
  successMessage?: string;
  kit?: { id: string; name: string; colours: string[]; toneGuidance: string | null };
}

export function KitForm<T>({ action, csrfToken, submitLabel, successMessage, kit }: KitFormProps<T>) {
  // controlled, so a refused save keeps what was typed (React resets uncontrolled fields after an action)
  const [name, setName] = useState(kit?.name ?? '');
  const [tone, setTone] = useState(kit?.toneGuidance ?? '');
  const [colours, setColours] = useState<string[]>(kit?.colours ?? ['#1f2937']);
  const set = (index: number, value: string) => setColours((all) => all.map((colour, at) => (at === index ? value : colour)));
  return (
    <ActionForm action={action} csrfToken={csrfToken} submitLabel={submitLabel} successMessage={successMessage} className="grid gap-4">
      {kit ? <input type="hidden" name="brand_kit_id" value={kit.id} /> : null}
      <Field id="kit-name" label="Name">
        <Input id="kit-name" name="name" required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} className="max-w-md" />
      </Field>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Colours</legend>
        <p className="text-xs text-slate-600" id="colours-hint">
          In order: the first is the primary colour, the second secondary, the third the accent (templates read them as brand.colours).
        </p>
        <ul className="mt-2 grid gap-2" aria-describedby="colours-hint">
          {colours.map((colour, index) => (
            // the position is the colour's identity here: its role follows its place
            // eslint-disable-next-line react/no-array-index-key
            <li key={index} className="flex flex-wrap items-center gap-2" data-testid="colour-row">
              <input
                type="color"
                aria-label={`Colour ${index + 1} picker`}
                value={hexPattern.test(colour) ? colour.toLowerCase() : '#000000'}
                onChange={(event) => set(index, event.target.value)}
                className="h-9 w-12 cursor-pointer rounded border border-slate-300 bg-white"
              />
              <div className="w-36">
                <Input
                  aria-label={`Colour ${index + 1}`}
                  name="colours[]"
                  value={colour}
                  onChange={(event) => set(index, event.target.value)}
                  pattern="#[0-9a-fA-F]{6}"
                  title="# and six hex digits, e.g. #1f2937"
                  className="font-mono"
                />
              </div>
              <Button variant="ghost" onClick={() => setColours((all) => all.filter((_, at) => at !== index))} aria-label={`Remove colour ${index + 1}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
        {colours.length < maxColours ? (
          <Button variant="secondary" className="mt-2" onClick={() => setColours((all) => [...all, '#ffffff'])}>
            Add colour
          </Button>
        ) : (
          <p className="mt-2 text-xs text-slate-600">A kit holds at most {maxColours} colours.</p>
        )}
      </fieldset>
      <Field id="kit-tone" label="Tone guidance" hint="How the brand speaks, for AI builds (up to 500 characters; leave empty for none).">
        <Textarea
          id="kit-tone"
          name="tone_guidance"
          rows={3}
          maxLength={500}
          value={tone}
          onChange={(event) => setTone(event.target.value)}
          aria-describedby="kit-tone-hint"
          className="font-sans"
        />
      </Field>
    </ActionForm>
  );
}
