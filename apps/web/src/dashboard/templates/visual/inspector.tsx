'use client';

import { fontFamilyValue, installedFontFamilies } from '@svc/rules';
import { useEffect, useId, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import type { DataField, Layer } from './layers.ts';

/** The colours and fonts of the template's brand kit (the source's svc-brand-kit). */
export interface VisualBrandKit {
  id: string;
  name: string;
  colours: string[];
  /** font family names, as templates read them (brand.fonts[].family) */
  fonts: string[];
}

export type Alignment = 'left' | 'centre' | 'right' | 'top' | 'middle' | 'bottom';

export interface InspectorProps {
  layers: Layer[];
  /** the text a single selected text layer holds in the source (null when it holds elements) */
  text: string | null;
  /** the field a single selected layer shows, when it shows exactly one */
  boundField: string | null;
  fields: DataField[];
  brandKit: VisualBrandKit | null;
  /** values from the selected layer's own style attribute */
  colour: string | null;
  fill: string | null;
  font: string | null;
  disabled: boolean;
  onText: (text: string) => void;
  onBind: (path: string) => void;
  onStyle: (property: string, value: string) => void;
  onAlign: (alignment: Alignment) => void;
}

const alignments: { value: Alignment; label: string }[] = [
  { value: 'left', label: 'Left' },
  { value: 'centre', label: 'Centre' },
  { value: 'right', label: 'Right' },
  { value: 'top', label: 'Top' },
  { value: 'middle', label: 'Middle' },
  { value: 'bottom', label: 'Bottom' },
];

const brandFontValue = (family: string) => `"${family.replaceAll('"', '')}", sans-serif`;

/** What can be changed on the selected layers: text, data binding, colours and font, alignment. */
export function Inspector({ layers, text, boundField, fields, brandKit, colour, fill, font, disabled, onText, onBind, onStyle, onAlign }: InspectorProps) {
  const id = useId();
  const single = layers.length === 1 ? layers[0]! : null;
  const [draft, setDraft] = useState(text ?? '');
  const [field, setField] = useState(boundField ?? '');
  useEffect(() => setDraft(text ?? ''), [text, single?.index]);
  useEffect(() => setField(boundField ?? ''), [boundField, single?.index]);

  if (layers.length === 0) {
    return <p className="text-sm text-slate-600">Select a layer on the canvas or in the list to change it. Shift-click or drag across the canvas to select several.</p>;
  }
  return (
    <div className="space-y-3 text-sm">
      <p className="font-medium">
        {single ? `${single.kind === 'text' ? 'Text' : single.kind === 'image' ? 'Image' : 'Shape'}: ${single.label}` : `${layers.length} layers`}
        {single ? (
          <span className="ml-2 font-normal text-slate-600">
            {Math.round(single.x)}, {Math.round(single.y)} · {Math.round(single.width)}×{Math.round(single.height)}
          </span>
        ) : null}
      </p>

      <fieldset className="flex flex-wrap items-center gap-1" disabled={disabled}>
        <legend className="sr-only">Align {single ? 'to the canvas' : 'to the selection'}</legend>
        <span className="mr-1 text-slate-600">Align {single ? 'on canvas' : 'together'}:</span>
        {alignments.map((alignment) => (
          <Button key={alignment.value} variant="secondary" onClick={() => onAlign(alignment.value)} aria-label={`Align ${alignment.label.toLowerCase()}`}>
            {alignment.label}
          </Button>
        ))}
      </fieldset>

      {single && single.kind !== 'image' && text !== null ? (
        <div className="space-y-1">
          <label htmlFor={`${id}-text`} className="block font-medium">
            Text
          </label>
          <textarea
            id={`${id}-text`}
            value={draft}
            disabled={disabled}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={() => draft !== text && onText(draft)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                if (draft !== text) onText(draft);
              }
            }}
            rows={2}
            className="w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
          />
        </div>
      ) : null}

      {single && (single.kind === 'image' || text !== null) ? (
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1">
            <span className="font-medium">{single.kind === 'image' ? 'Image from data field' : 'Text from data field'}</span>
            <select value={field} disabled={disabled} onChange={(event) => setField(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1">
              <option value="">Choose a field…</option>
              {fields.map((each) => (
                <option key={each.path} value={each.path}>
                  {each.path} — {each.value.length > 30 ? `${each.value.slice(0, 29)}…` : each.value}
                </option>
              ))}
            </select>
          </label>
          <Button variant="secondary" disabled={disabled || field === '' || field === boundField} onClick={() => onBind(field)}>
            Bind field
          </Button>
        </div>
      ) : null}

      {single ? (
        <>
          <ColourRow label="Text colour" property="color" value={colour} brandKit={brandKit} disabled={disabled} onStyle={onStyle} />
          <ColourRow label="Fill" property="background-color" value={fill} brandKit={brandKit} disabled={disabled} onStyle={onStyle} />
          <label className="flex flex-col gap-1">
            <span className="font-medium">Font</span>
            <select value={font ?? ''} disabled={disabled} onChange={(event) => event.target.value && onStyle('font-family', event.target.value)} className="rounded-md border border-slate-300 px-2 py-1">
              <option value="">{font ? font : 'As the template sets it'}</option>
              {brandKit && brandKit.fonts.length > 0 ? (
                <optgroup label={`Brand kit: ${brandKit.name}`}>
                  {brandKit.fonts.map((family) => (
                    <option key={family} value={brandFontValue(family)}>
                      {family}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              <optgroup label="Installed on every render worker">
                {installedFontFamilies
                  .filter((each) => each.category !== 'emoji')
                  .map((each) => (
                    <option key={each.family} value={fontFamilyValue(each)}>
                      {each.family}
                    </option>
                  ))}
              </optgroup>
            </select>
          </label>
        </>
      ) : null}
    </div>
  );
}

function ColourRow({ label, property, value, brandKit, disabled, onStyle }: { label: string; property: string; value: string | null; brandKit: VisualBrandKit | null; disabled: boolean; onStyle: (property: string, value: string) => void }) {
  const id = useId();
  const hex = value && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : '#000000';
  return (
    <fieldset className="flex flex-wrap items-center gap-1" disabled={disabled}>
      <legend className="mb-1 font-medium">{label}</legend>
      {brandKit?.colours.map((colour) => (
        <button
          key={colour}
          type="button"
          onClick={() => onStyle(property, colour)}
          aria-label={`${label}: ${colour}`}
          aria-pressed={value?.toLowerCase() === colour}
          className="h-7 w-7 rounded border border-slate-300 aria-pressed:ring-2 aria-pressed:ring-indigo-600"
          style={{ background: colour }}
        />
      ))}
      <label htmlFor={id} className="sr-only">
        {label}, any colour
      </label>
      <input id={id} type="color" value={hex} onChange={(event) => onStyle(property, event.target.value)} className="h-7 w-10 rounded border border-slate-300" />
      <span className="font-mono text-xs text-slate-600">{value ?? 'as the template sets it'}</span>
    </fieldset>
  );
}
