import { maxTemplateDataBytes } from '@svc/rules';
import { checkTemplateData, defaultTemplateLimits, evaluateTemplate, TemplateError, TemplateOverloadedError } from '@svc/templating';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { type BrandValues, checkBrandData, templateBrand } from './brand-values.ts';
import { compileDataSchema, validateData } from './data-schema.ts';
import { DomainError } from '../shared/errors.ts';
import { type EvaluationAccount, type EvaluationTenancy, meteredEvaluation } from './evaluation-budget.ts';
import { machineOverloaded, templateRefusal } from './template-refusal.ts';

/**
 * Room the brand values take in the evaluated data (a name, 16 colours, logos and fonts): the
 * customer's data is held to the 1 MiB limits on its own, before brand is added.
 */
const brandLimits = { dataBytes: maxTemplateDataBytes + 64 * 1024, dataCollection: defaultTemplateLimits.dataCollection + 1 };

export interface EvaluateSourceOptions {
  source: string;
  data: Record<string, unknown>;
  /** Where source errors point, with line and column (html, source, template_id). */
  sourceField: string;
  /** The selected brand kit's values, read by the template as `brand`. */
  brand?: BrandValues | null;
  /**
   * Whose evaluation budget pays (evaluation-budget.ts): an account, whose budget is taken here;
   * the tenancy a caller already took for a whole request (a group's rows); or none, for the
   * service's own fixed content and checks that run on nobody's budget.
   */
  metering?: EvaluationAccount | EvaluationTenancy;
}

export interface EvaluateTemplateDataOptions extends EvaluateSourceOptions {
  /** The schema the data must meet (a version's, a preview's, a draft's); unset: any data within the limits. */
  schema?: unknown;
  /** What the source reads when it is not the data itself: a saved size's data_overrides merged over it. */
  evaluatedData?: (data: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

/**
 * Evaluates customer data with a source: what a render of template html, a saved template's
 * render, a preview, a version comparison and an AI draft's sample data all do. First the checks
 * any evaluation of customer data makes (checkEvaluationData: data.brand while a kit is selected,
 * the data limits), then, within the account's evaluation budget when `metering` names one, the
 * data against the schema and the evaluation. A group checks every row before it evaluates any,
 * so it calls the parts itself (groups/member-input.ts).
 */
export async function evaluateTemplateData(metrics: ServiceMetrics, options: EvaluateTemplateDataOptions): Promise<string> {
  const { data, brand = null, metering, evaluatedData } = options;
  const validator = compileDataSchema(options.schema ?? null);
  await checkEvaluationData(metrics, data, brand);
  const evaluate = async (tenancy?: EvaluationTenancy) => {
    validateData(validator, data, tenancy);
    return evaluateSource(metrics, { ...options, data: evaluatedData ? await evaluatedData(data) : data, metering: tenancy });
  };
  // the account's budget is taken before the data is validated, and pays for both
  return metering && !('tenant' in metering) ? meteredEvaluation(metering, evaluate) : evaluate(metering);
}

/** The checks of customer data before a schema walks it or a template reads it: data.brand is reserved while a kit is selected, then the data limits. */
export async function checkEvaluationData(metrics: ServiceMetrics, data: Record<string, unknown>, brand: BrandValues | null): Promise<void> {
  checkBrandData(data, brand);
  await checkDataLimits(metrics, data);
}

/**
 * Evaluates a source with data in the sandbox, the data already checked (evaluateTemplateData
 * checks it; a group checks its rows first). Errors point at `sourceField` with line and column
 * (the sandbox's own data-limit errors into the data, as checkDataLimits does). With a brand kit
 * selected, templates also read `brand` (the contract's brand values), added after the
 * customer's data passed its limits. Customer work names its account in `metering`: the
 * evaluation is then within the account's budget and takes its turn among accounts in the
 * sandbox; only the service's own fixed content omits it.
 */
export async function evaluateSource(metrics: ServiceMetrics, { source, data, sourceField, brand = null, metering }: EvaluateSourceOptions): Promise<string> {
  try {
    const input = brand ? { source, data: { ...data, brand: templateBrand(brand) }, limits: brandLimits } : { source, data };
    const timed = (tenancy?: EvaluationTenancy) => timedEvaluation(metrics, () => evaluateTemplate({ ...input, ...tenancy }));
    if (!metering) return await timed();
    if ('tenant' in metering) return await timed(metering);
    return await meteredEvaluation(metering, timed);
  } catch (error) {
    if (error instanceof TemplateOverloadedError) throw machineOverloaded();
    if (!(error instanceof TemplateError)) throw error;
    metrics.templateEvaluationRefusals.inc({ reason: error.code });
    throw templateRefusal(error, error.code.startsWith('template_data_') ? dataField(error) : sourceField);
  }
}

/** One evaluation in the sandbox, its time observed whether it succeeded or not. */
export async function timedEvaluation(metrics: ServiceMetrics, evaluate: () => Promise<{ html: string }>): Promise<string> {
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
export async function checkDataLimits(metrics: ServiceMetrics, data: Record<string, unknown>): Promise<void> {
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
