// Error messages that name what is wrong: a non-JSON body is told to send application/json on
// every route that takes JSON, missing template data names its variable and line, and a template
// refused where stock nunjucks would render says the one-line fix.
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount } from './support/api.ts';

describe('415 names the content type to send', () => {
  it('says application/json on each route that takes a JSON body', async () => {
    const account = await newAccount();
    const routes = ['/v1/pdf', '/v1/image', '/v1/keys', '/v1/webhooks', '/v1/templates', '/v1/templates/preview', '/v1/brand-kits'];
    for (const route of routes) {
      const answer = await api(route, { method: 'POST', key: account.apiKey, rawBody: 'html=x', headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': crypto.randomUUID() } });
      const error = expectError(answer, 415, 'unsupported_media_type');
      expect(error.message, route).toContain('application/json');
    }
  });
});

describe('template_missing_data names the variable and its line', () => {
  it('in a preview, a render and a saved template, keeping the details and never a data value', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const preview = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: '<p>a</p>\n<p>{{ customer.name }}</p>', data: { other: 'PRIVATE-VALUE' } } });
    const previewError = expectError(preview, 400, 'template_missing_data');
    expect(previewError.message).toBe(
      'The template uses customer.name on line 2, which the data does not define. Give customer.name in the data, or write {{ customer.name | default("") }}, or test it with {% if customer.name is defined %}.',
    );
    expect(previewError.details).toEqual([{ field: 'source', reason: 'Declare this variable before using it.', line: 2, column: 4 }]);
    expect(preview.text).not.toContain('PRIVATE-VALUE');

    const render = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '{% for row in rows %}\n\n<td>{{ row.total | round }}</td>{% endfor %}', data: { rows: [{}] } } });
    expect(expectError(render, 400, 'template_missing_data').message).toMatch(/^The template uses row\.total on line 3,.*\{\{ row\.total \| default\(0\) \| round \}\}/);

    const saved = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { name: 'Letter', source: '<p>Dear {{ recipient.first_name }}</p>' }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(saved.status).toBe(201);
    const fromSaved = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: saved.body.id, data: {} } });
    const savedError = expectError(fromSaved, 400, 'template_missing_data');
    expect(savedError.message).toContain('recipient.first_name on line 1');
    expect(savedError.details?.[0]).toMatchObject({ field: 'template_id', line: 1 });
  });

  it('keeps the fixed words, and the fix in general words, when the missing value has no plain name', async () => {
    const account = await newAccount();
    const answer = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: '{{ customer[field] }}', data: { customer: {}, field: 'x' } } });
    expect(expectError(answer, 400, 'template_missing_data').message).toBe(
      'The template uses a value that the data does not define. Give it in the data, or follow it with | default(""), or test it with "is defined" in an if.',
    );
  });
});

describe('a template refused where stock nunjucks would render says the fix, with the code and reason unchanged', () => {
  it('loader tags and groupby over items missing the attribute', async () => {
    const account = await newAccount();
    const include = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: '<p>\n{% include "header.html" %}', data: {} } });
    const includeError = expectError(include, 400, 'template_syntax_error');
    expect(includeError.message).toMatch(/^The template has a syntax error\. include, import and extends are not available/);
    expect(includeError.details).toEqual([{ field: 'source', reason: 'Use the required format.', line: 2, column: 4 }]);
    const groupby = await api('/v1/templates/preview', {
      method: 'POST',
      key: account.apiKey,
      body: { source: '{% for kind, rows in items | groupby("kind") %}{{ kind }}{% endfor %}', data: { items: [{ kind: 'a' }, {}] } },
    });
    expect(expectError(groupby, 400, 'template_invalid_filter_input').message).toContain('{{ items | selectattr("kind") | groupby("kind") }}');
  });
});
