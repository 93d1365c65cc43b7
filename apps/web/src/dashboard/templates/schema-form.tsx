'use client';

import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useMemo, useRef } from 'react';
import './schema-form.css';

export interface SchemaFormProps {
  schema: Record<string, unknown>;
  data: Record<string, unknown>;
  onChange: (data: Record<string, unknown>) => void;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A property name as words for a label: "issued_on" and "issuedOn" read "Issued on". */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/**
 * The schema with a title on every property that has none, made from its name, so the form
 * labels fields in words. The schema's own titles and descriptions are kept as written.
 */
export function withTitles(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const result: Record<string, unknown> = { ...schema };
  if (isObject(schema.properties)) {
    result.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const titled = withTitles(property);
        return [name, isObject(titled) && typeof titled.title !== 'string' ? { ...titled, title: labelOf(name) } : titled];
      }),
    );
  }
  if (isObject(schema.items)) result.items = withTitles(schema.items);
  return result;
}

/**
 * The form's field order, from the keys of the data it opens with: a stored schema's keys come
 * back in the database's order (shortest first), the sample data keeps the order its author
 * wrote. Fields the data lacks follow in the schema's order.
 */
export function orderOf(schema: unknown, data: unknown): Record<string, unknown> {
  if (!isObject(schema)) return {};
  const ui: Record<string, unknown> = {};
  const sample = Array.isArray(data) ? data[0] : data;
  if (isObject(schema.properties)) {
    const names = Object.keys(schema.properties);
    const known = isObject(sample) ? Object.keys(sample).filter((name) => names.includes(name)) : [];
    if (known.length > 0) ui['ui:order'] = [...known, '*'];
    for (const [name, property] of Object.entries(schema.properties)) {
      const nested = orderOf(property, isObject(sample) ? sample[name] : undefined);
      if (Object.keys(nested).length > 0) ui[name] = nested;
    }
  }
  if (isObject(schema.items)) {
    const nested = orderOf(schema.items, Array.isArray(data) ? data[0] : undefined);
    if (Object.keys(nested).length > 0) ui.items = nested;
  }
  return ui;
}

/**
 * A form generated from the version's JSON schema. The service validates data itself (with
 * its own draft rules); the form only helps to fill it, so the draft marker is left out for the
 * form's validator, which speaks draft-07.
 */
export default function SchemaForm({ schema, data, onChange }: SchemaFormProps) {
  const formSchema = useMemo(() => {
    const { $schema: _draft, ...rest } = schema;
    return withTitles(rest) as RJSFSchema;
  }, [schema]);
  // the order is taken once per schema: a field filled in later does not move under the cursor
  const opened = useRef(data);
  const uiSchema = useMemo(() => ({ ...orderOf(formSchema, opened.current), 'ui:submitButtonOptions': { norender: true } }), [formSchema]);
  return (
    <div className="svc-schema-form">
      <Form
        schema={formSchema}
        formData={data}
        validator={validator}
        noHtml5Validate
        showErrorList={false}
        onChange={(event) => onChange((event.formData ?? {}) as Record<string, unknown>)}
        uiSchema={uiSchema}
      />
    </div>
  );
}
