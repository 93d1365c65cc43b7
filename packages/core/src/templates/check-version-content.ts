import { maxTemplateSourceBytes } from '@svc/rules';
import { maxSavedSizes, sizeIdPattern, type SizeVariant, type SizeVariantInput, canvasHeight, canvasWidth, maxTemplateNameChars } from '@svc/contracts';
import { canonicalJson, evaluateTemplate, TemplateError, TemplateOverloadedError } from '@svc/templating';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { DomainError } from '../shared/errors.ts';
import { readCanvas } from './canvas.ts';
import { machineOverloaded, templateRefusal } from './template-refusal.ts';
import { compileDataSchema } from './data-schema.ts';
import { type EvaluationAccount, type EvaluationTenancy, evaluationWithinBudget, meteredEvaluation } from './evaluation-budget.ts';
import { timedEvaluation } from './evaluate-source.ts';

export const maxSourceBytes = maxTemplateSourceBytes;
/** All saved sizes of a version together, as JSON. */
export const maxSizesBytes = 4 * 1024 * 1024;
/** One size's data_overrides, as canonical JSON. */
export const maxDataOverridesBytes = 65_536;

export interface VersionContentInput {
  source: string;
  schema?: unknown;
  sizes?: SizeVariantInput[];
  inputMode: 'html' | 'blank';
  /** the account saving the version: its syntax checks are charged to its evaluation budget */
  account?: EvaluationAccount;
  /** Where the syntax checks are counted (the service context's). */
  metrics: ServiceMetrics;
}

/** Whose syntax checks: the account whose budget pays (none for an AI draft's) and where they are counted. */
type SyntaxChecker = Pick<VersionContentInput, 'account' | 'metrics'>;

export interface VersionContent {
  source: string;
  schema: unknown;
  sizes: SizeVariant[];
}

const fail = (code: ConstructorParameters<typeof DomainError>[0], field: string, reason: 'invalid value' | 'Use a shorter value.' = 'invalid value') =>
  new DomainError(code, { details: [{ field, reason }] });

/**
 * The checks of a new version (create or publish): source size and syntax, the canvas of a
 * blank-mode template, the schema rules, and every saved size. The first problem found answers.
 */
export async function checkVersionContent(input: VersionContentInput): Promise<VersionContent> {
  await checkSource(input.source, 'source', input);
  if (input.inputMode === 'blank' && readCanvas(input.source).kind !== 'canvas') throw fail('invalid_request', 'source');
  const schema = input.schema ?? null;
  compileDataSchema(schema);
  const sizes = await checkSizes(input.sizes ?? [], input);
  return { source: input.source, schema, sizes };
}

/** Size limit, then a syntax check. */
async function checkSource(source: string, field: string, checker: SyntaxChecker): Promise<void> {
  checkSourceBytes(source, field);
  await checkSyntax(source, field, checker, 'always');
}

function checkSourceBytes(source: string, field: string): void {
  if (Buffer.byteLength(source, 'utf8') > maxSourceBytes) throw fail('template_source_limit', field, 'Use a shorter value.');
}

/**
 * Evaluates the source with empty data: only syntax errors are refused here. The version's own
 * source is checked `always`, its time charged to the account; a saved size's source
 * `withinBudget`: only while the account's evaluation budget holds an evaluation, so a version
 * of twenty sizes costs an account no more evaluation than its budget allows (a size not
 * checked here is checked by its first render or preview). Answers whether the check ran.
 */
async function checkSyntax(source: string, field: string, { metrics, account }: SyntaxChecker, when: 'always' | 'withinBudget'): Promise<boolean> {
  const check = (tenancy?: EvaluationTenancy) => timedEvaluation(metrics, () => evaluateTemplate({ source, data: {}, ...tenancy }));
  try {
    if (!account) await check();
    else if (when === 'always') await meteredEvaluation(account, check, { refuse: false });
    else return (await evaluationWithinBudget(account, check)) !== 'skipped';
  } catch (error) {
    if (error instanceof TemplateOverloadedError) throw machineOverloaded();
    if (!(error instanceof TemplateError)) throw error;
    if (error.code === 'template_syntax_error') throw templateRefusal(error, field);
  }
  return true;
}

async function checkSizes(sizes: SizeVariantInput[], checker: SyntaxChecker): Promise<SizeVariant[]> {
  if (sizes.length > maxSavedSizes) throw fail('template_sizes_too_many', 'sizes');
  if (Buffer.byteLength(JSON.stringify(sizes), 'utf8') > maxSizesBytes) throw fail('template_sizes_too_large', 'sizes', 'Use a shorter value.');
  const seen = new Set<string>();
  const result: SizeVariant[] = [];
  // once the budget is spent, the remaining sizes are not evaluated either
  let evaluating = true;
  for (const [index, size] of sizes.entries()) {
    const at = (name: string) => `sizes.${index}.${name}`;
    if (!sizeIdPattern.test(size.id) || size.id === 'original') throw fail('template_size_invalid_id', at('id'));
    if (seen.has(size.id)) throw fail('template_size_duplicate_id', at('id'));
    seen.add(size.id);
    if (size.name.trim().length === 0 || size.name.length > maxTemplateNameChars) throw fail('template_size_invalid_name', at('name'));
    if (!Number.isInteger(size.width) || size.width < canvasWidth.min || size.width > canvasWidth.max) {
      throw fail('template_size_invalid_dimensions', at('width'));
    }
    if (!Number.isInteger(size.height) || size.height < canvasHeight.min || size.height > canvasHeight.max) {
      throw fail('template_size_invalid_dimensions', at('height'));
    }
    checkSourceBytes(size.source, at('source'));
    if (evaluating) evaluating = await checkSyntax(size.source, at('source'), checker, 'withinBudget');
    const canvas = readCanvas(size.source);
    if (canvas.kind !== 'canvas' || canvas.canvas.width !== size.width || canvas.canvas.height !== size.height) {
      throw fail('template_size_canvas_mismatch', at('source'));
    }
    if (size.data_overrides && Buffer.byteLength(canonicalJson(size.data_overrides), 'utf8') > maxDataOverridesBytes) {
      throw fail('template_size_data_overrides_too_large', at('data_overrides'), 'Use a shorter value.');
    }
    result.push({
      id: size.id,
      name: size.name,
      width: size.width,
      height: size.height,
      status: size.status,
      source: size.source,
      ...(size.data_overrides ? { data_overrides: size.data_overrides } : {}),
    });
  }
  return result;
}
