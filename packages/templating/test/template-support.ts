// Helpers shared by the template sandbox tests.
import { expect } from 'vitest';
import { TemplateError, evaluateTemplate, type EvaluateTemplateInput, type TemplateErrorCode } from '../src/index.ts';

export async function render(source: string, data: Record<string, unknown> = {}, limits?: EvaluateTemplateInput['limits']): Promise<string> {
  const { html } = await evaluateTemplate({ source, data, ...(limits ? { limits } : {}) });
  return html;
}

export interface Refusal {
  error: TemplateError;
  ms: number;
}

/** Evaluates and returns the TemplateError it must end with; fails on anything else. */
export async function refusal(input: EvaluateTemplateInput): Promise<Refusal> {
  const started = performance.now();
  try {
    const { html } = await evaluateTemplate(input);
    throw new Error(`expected a TemplateError, rendered ${html.length} chars`);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { error, ms: performance.now() - started };
  }
}

export async function expectRefused(
  source: string,
  code: TemplateErrorCode,
  options: { data?: Record<string, unknown>; limits?: EvaluateTemplateInput['limits']; line?: number; column?: number } = {},
): Promise<Refusal> {
  const result = await refusal({ source, data: options.data ?? {}, ...(options.limits ? { limits: options.limits } : {}) });
  expect(result.error.code).toBe(code);
  expect(result.error.message).toBe(code);
  if (options.line !== undefined) expect(result.error.line).toBe(options.line);
  if (options.column !== undefined) expect(result.error.column).toBe(options.column);
  return result;
}
