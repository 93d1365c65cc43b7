'use client';

import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useMemo } from 'react';
import './schema-form.css';

export interface SchemaFormProps {
  schema: Record<string, unknown>;
  data: Record<string, unknown>;
  onChange: (data: Record<string, unknown>) => void;
}

/**
 * A form generated from the version's JSON schema. The service validates data itself (with
 * its own draft rules); the form only helps to fill it, so the draft marker is left out for the
 * form's validator, which speaks draft-07.
 */
export default function SchemaForm({ schema, data, onChange }: SchemaFormProps) {
  const formSchema = useMemo(() => {
    const { $schema: _draft, ...rest } = schema;
    return rest as RJSFSchema;
  }, [schema]);
  return (
    <div className="svc-schema-form">
      <Form
        schema={formSchema}
        formData={data}
        validator={validator}
        noHtml5Validate
        showErrorList={false}
        onChange={(event) => onChange((event.formData ?? {}) as Record<string, unknown>)}
        uiSchema={{ 'ui:submitButtonOptions': { norender: true } }}
      />
    </div>
  );
}
