import { type FieldDetail, missingDataMessage } from '@svc/contracts';
import { maxTemplateDataBytes } from '@svc/rules';
import { checkTemplateData, defaultTemplateLimits, evaluateTemplate, TemplateError } from '@svc/templating';
import { type BrandValues, templateBrand } from './brand-values.ts';
import { metrics } from '../metrics/metrics.ts';
import { DomainError } from '../shared/errors.ts';
import { type EvaluationAccount, type EvaluationTenancy, meteredEvaluation } from './evaluation-budget.ts';

/**
 * Room the brand values take in the evaluated data (a name, 16 colours, logos and fonts): the
 * customer's data is held to the 1 MiB limits on its own, before brand is added.
 */
const brandLimits = { dataBytes: maxTemplateDataBytes + 64 * 1024, dataCollection: defaultTemplateLimits.dataCollection + 1 };

/**
 * Evaluates a template source with data in the sandbox. The data has passed checkDataLimits:
 * callers check it once, before a schema walks it. Errors point at `sourceField` with line and
 * column (the sandbox's own data-limit errors into the data, as checkDataLimits does).
 * With a brand kit selected, templates also read `brand` (the contract's brand values), added after the customer's
 * data passed its limits (callers check data.brand and the schema first). Customer work names
 * its `account`: the evaluation is then within the account's budget (evaluation-budget.ts) and
 * takes its turn among accounts in the sandbox; only the service's own fixed content omits it.
 * Work that evaluates many times for one request (a group's rows) meters the whole request once
 * and passes the `tenancy` it got instead.
 */
export async function evaluateSource(
  source: string,
  data: Record<string, unknown>,
  sourceField: string,
  brand: BrandValues | null = null,
  metering?: EvaluationAccount | EvaluationTenancy,
): Promise<string> {
  try {
    const input = brand ? { source, data: { ...data, brand: templateBrand(brand) }, limits: brandLimits } : { source, data };
    if (!metering) return await timedEvaluation(() => evaluateTemplate(input));
    if ('tenant' in metering) return await timedEvaluation(() => evaluateTemplate({ ...input, ...metering }));
    return await meteredEvaluation(metering, (tenancy) => timedEvaluation(() => evaluateTemplate({ ...input, ...tenancy })));
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    metrics.templateEvaluationRefusals.inc({ reason: error.code });
    const field = error.code.startsWith('template_data_') ? dataField(error) : sourceField;
    const detail: FieldDetail = {
      field,
      reason: error.reason,
      ...(error.line ? { line: error.line } : {}),
      ...(error.column ? { column: error.column } : {}),
    };
    const clientMessage = error.code === 'template_missing_data' ? missingDataMessage(error.variable, error.line) : undefined;
    throw new DomainError(error.code, { details: [detail], ...(clientMessage ? { clientMessage } : {}) });
  }
}

/** One evaluation in the sandbox, its time observed whether it succeeded or not. */
export async function timedEvaluation(evaluate: () => Promise<{ html: string }>): Promise<string> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const { html } = await evaluate();
    metrics.templateEvaluationDuration.observe({ outcome: 'ok' }, seconds());
    return html;
  } catch (error) {
    metrics.templateEvaluationDuration.observe({ outcome: 'error' }, seconds());
    throw error;
  }
}

/**
 * The data limits (depth, collection size, bytes) of template data, checked once before a
 * schema walks it or a template reads it. A refusal points into the data ("data" and a JSON
 * Pointer) and is counted like the sandbox's own refusals.
 */
export async function checkDataLimits(data: Record<string, unknown>): Promise<void> {
  try {
    checkTemplateData(data);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    metrics.templateEvaluationRefusals.inc({ reason: error.code });
    throw new DomainError(error.code, { details: [{ field: dataField(error), reason: error.reason }] });
  }
}

/** A data-limit refusal's field: "data" followed by a JSON Pointer (the contract's error rules). */
const dataField = (error: TemplateError) => `data${error.pointer ?? ''}`;
