// JSON schemas of saved templates: which drafts are accepted, how large and complex a
// schema may be, and how data is validated against one (ajv). Every regular expression a
// validation runs (pattern, patternProperties, formats) runs in RE2, linear in the value's
// length; what else could run long has a time bound counted in this thread's CPU time, so a
// busy machine answers overloaded (retry), never a refusal of the schema.
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import type { FieldDetail } from '@svc/contracts';
import AjvDraft07 from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { canonicalJson, threadCpuMs } from '@svc/templating';
import { DomainError } from '../shared/errors.ts';
import { cutPointer } from '@svc/rules';
import { dataFormats } from './data-formats.ts';
import type { EvaluationTenancy } from './evaluation-budget.ts';
import { checkLinearPattern, linearRegExp } from './linear-regexp.ts';
import { machineOverloaded } from './template-refusal.ts';

/** Bounds of a schema (docs/decisions/saved-templates.md, Schemas); past them, template_schema_too_large or _complexity. */
export const schemaLimits = {
  bytes: 131_072,
  nodes: 1_000,
  depth: 32,
  patternChars: 512,
  uniqueItemsMaxItems: 1_000,
  /**
   * CPU time of one validation (and of one compilation); past it, template_schema_complexity.
   * Compiling cannot come near it within the bounds above (ajv compiles each $ref target once,
   * see newAjv: 1,000 nodes take well under half a second).
   */
  timeMs: 1_000,
  /** Wall time after which the work is stopped: template_schema_complexity if it used timeMs of CPU, else overloaded. */
  safetyMs: 10_000,
} as const;


type Draft = '2020-12' | '2019-09' | 'draft-07';
type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const draftUris: Record<string, Draft> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
};

/** The draft a schema declares in $schema (absent: 2020-12); anything else is unsupported. */
function draftOf(schema: unknown): Draft {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return '2020-12';
  const declared = (schema as { $schema: unknown }).$schema;
  if (typeof declared !== 'string') throw schemaError('template_schema_invalid');
  const uri = declared.replace(/^https?:\/\//, '').replace(/#$/, '');
  const draft = draftUris[uri];
  if (!draft) throw schemaError('template_schema_draft_unsupported');
  return draft;
}

type SchemaCode = 'template_schema_invalid' | 'template_schema_draft_unsupported' | 'template_schema_too_large' | 'template_schema_complexity';

/** The refusal of a schema; `pointer` (a JSON Pointer into the schema) names the part refused, when one is. */
function schemaError(code: SchemaCode, pointer = '') {
  return new DomainError(code, { details: [{ field: `schema${cutPointer(pointer)}`, reason: 'invalid value' }] });
}

const pointerPart = (key: string | number) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

/**
 * The complexity measure: at most 1,000 JSON objects and arrays in the whole schema and 32
 * levels of nesting; every pattern (and patternProperties key) at most 512 characters, a valid
 * Unicode regular expression that RE2 runs (no backreferences, no lookaround); uniqueItems only
 * where maxItems is at most 1,000.
 */
function checkComplexity(schema: unknown): void {
  let nodes = 0;
  const walk = (value: unknown, depth: number, pointer: string): void => {
    if (value === null || typeof value !== 'object') return;
    nodes += 1;
    if (nodes > schemaLimits.nodes || depth > schemaLimits.depth) throw schemaError('template_schema_complexity');
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, depth + 1, pointer + pointerPart(index)));
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.pattern === 'string') checkPattern(record.pattern, `${pointer}/pattern`);
    if (record.patternProperties && typeof record.patternProperties === 'object') {
      // the key is the pattern: the pointer names the object that holds it, not the pattern itself
      for (const key of Object.keys(record.patternProperties)) checkPattern(key, `${pointer}/patternProperties`);
    }
    if (record.uniqueItems === true && !(typeof record.maxItems === 'number' && record.maxItems <= schemaLimits.uniqueItemsMaxItems)) {
      throw schemaError('template_schema_complexity', `${pointer}/uniqueItems`);
    }
    for (const [key, item] of Object.entries(record)) walk(item, depth + 1, pointer + pointerPart(key));
  };
  walk(schema, 1, '');
}

/**
 * A pattern RE2 cannot run in linear time answers template_schema_complexity, like any other
 * schema too costly to check; one that is no regular expression, template_schema_invalid. A
 * version saved before patterns ran in RE2 may hold such a pattern: its renders are refused the
 * same way (compileDataSchema runs on every use), and no data is ever matched by backtracking.
 */
function checkPattern(pattern: string, pointer: string): void {
  if (pattern.length > schemaLimits.patternChars) throw schemaError('template_schema_complexity', pointer);
  const verdict = checkLinearPattern(pattern);
  if (verdict === 'invalid') throw schemaError('template_schema_invalid', pointer);
  if (verdict === 'unsupported') throw schemaError('template_schema_complexity', pointer);
}

/**
 * Runs synchronous work under a wall-clock safety net (V8 interrupts it, regular expressions
 * included). Stopped there, the thread's CPU time tells whose doing it was: past timeMs, the
 * schema's (template_schema_complexity); under it, a busy machine's (overloaded, retry). Where
 * the thread's CPU time cannot be read, the schema's. A stack overflow is the schema's.
 */
function bounded<T>(work: () => T): T {
  boundedContext.work = work;
  const cpuAtStart = threadCpuMs();
  try {
    return callWork.runInContext(boundedContext, { timeout: schemaLimits.safetyMs }) as T;
  } catch (error) {
    if (error instanceof RangeError) throw schemaError('template_schema_complexity');
    if ((error as { code?: string })?.code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    const cpu = threadCpuMs();
    if (cpu === null || cpuAtStart === null || cpu - cpuAtStart >= schemaLimits.timeMs) throw schemaError('template_schema_complexity');
    throw machineOverloaded();
  } finally {
    boundedContext.work = undefined;
  }
}

/**
 * The context and the compiled call every bounded run uses: the work runs in this realm anyway
 * (the context only carries the time bound), and making a context per run cost more than the
 * validation of a typical document's data (about 1 ms against a few microseconds).
 */
const boundedContext: { work?: () => unknown } = vm.createContext({ work: undefined });
const callWork = new vm.Script('work()');

const cache = new Map<string, Validator>();
const cacheSize = 64;

/**
 * Checks a schema with the saved-template rules and returns its validator (null for no
 * schema). Throws template_schema_* with a detail on `schema`. Compiled validators are
 * cached by the SHA-256 of the schema's canonical JSON.
 */
export function compileDataSchema(schema: unknown): Validator | null {
  if (schema === null || schema === undefined) return null;
  const text = JSON.stringify(schema);
  if (Buffer.byteLength(text, 'utf8') > schemaLimits.bytes) throw schemaError('template_schema_too_large');
  const hash = createHash('sha256').update(text).digest('hex');
  const cached = cache.get(hash);
  if (cached) return cached;
  const draft = draftOf(schema);
  checkComplexity(schema);
  // the instance (and its meta-schema, our own work) is made outside the bound
  const ajv = compilerOf(draft);
  let validator: Validator;
  try {
    validator = bounded(() => {
      const compiled = ajv.compile(schema as object) as Validator;
      // the validator keeps what it compiled; the instance forgets the schema, so it does not grow
      // (a boolean schema is kept once, by its value)
      if (typeof schema === 'object') ajv.removeSchema(schema as object);
      return compiled;
    });
  } catch (error) {
    // a failed or interrupted compilation (V8 ends an interrupted one without running its catch
    // blocks) may leave the schema half registered: a new instance next time
    compilers.delete(draft);
    const code = (error as { code?: string })?.code;
    if (code === 'template_schema_complexity' || code === 'overloaded') throw error;
    throw schemaError('template_schema_invalid');
  }
  // a $ref cycle that never descends into the data recurses on any value: find it now
  bounded(() => [null, {}, [], '', 0, true].forEach((probe) => validator(probe)));
  if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
  cache.set(hash, validator);
  return validator;
}

/**
 * One ajv instance per draft, kept: an instance compiles its draft's meta-schema once (some
 * 40 ms, forty times a small schema's compilation), and each schema is removed from it once
 * compiled, so it does not grow.
 */
const compilers = new Map<Draft, ReturnType<typeof newAjv>>();

function compilerOf(draft: Draft) {
  let ajv = compilers.get(draft);
  if (!ajv) compilers.set(draft, (ajv = newAjv(draft)));
  return ajv;
}

function newAjv(draft: Draft) {
  // inlineRefs false: each $ref target is compiled once, as a function of its own, so the code
  // (and the time to compile it) grows with the schema's node count, which checkComplexity
  // bounds; inlined, one 30-node subschema referenced 900 times compiles 27,000 nodes of code.
  const options = { allErrors: true, strict: false, validateFormats: true, unicodeRegExp: true, inlineRefs: false, code: { regExp: linearRegExp } } as const;
  const ajv = draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new AjvDraft07(options);
  // ajv-formats' keywords (formatMinimum ...) with the formats of data-formats.ts
  addFormats(ajv, { formats: [], keywords: true });
  for (const [name, format] of Object.entries(dataFormats())) ajv.addFormat(name, format);
  // ajv compares the items of an array pairwise (quadratic in their number and size): one pass
  // over each item's canonical JSON instead
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', validate: (unique: boolean, items: unknown[]) => !unique || distinct(items) });
  return ajv;
}

/** Whether no two items are equal as JSON Schema defines it (canonical JSON: key order aside, numbers by value). */
function distinct(items: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

const keywordReasons: Record<string, FieldDetail['reason']> = {
  required: 'A required value is missing.',
  dependentRequired: 'A required value is missing.',
  dependencies: 'A required value is missing.',
  type: 'Use the expected value type.',
  enum: 'Choose an allowed value.',
  const: 'Choose an allowed value.',
  format: 'Use the required format.',
  pattern: 'Use the required format.',
  minLength: 'Add a value.',
  minItems: 'Add a value.',
  minProperties: 'Add a value.',
  maxLength: 'Use a shorter value.',
  maxItems: 'Use a shorter value.',
  maxProperties: 'Use a shorter value.',
  minimum: 'Use a number within the allowed range.',
  maximum: 'Use a number within the allowed range.',
  exclusiveMinimum: 'Use a number within the allowed range.',
  exclusiveMaximum: 'Use a number within the allowed range.',
  multipleOf: 'Use a number within the allowed range.',
};

/** The property an error is about, when ajv names one below instancePath. */
function childOf(error: AjvError): string | undefined {
  const name = error.params.missingProperty ?? error.params.additionalProperty ?? error.params.unevaluatedProperty;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Validates data (its time charged to `tenancy`, the account's evaluation budget, when given); failures answer 400 template_data_invalid with at most 16 details whose
 * field is data plus a JSON Pointer and whose reason is one of the spec's fixed texts
 * (never ajv's message or the value).
 */
export function validateData(validator: Validator | null, data: unknown, tenancy?: Pick<EvaluationTenancy, 'onWork'>): void {
  if (!validator) return;
  const started = performance.now();
  let valid: boolean;
  try {
    valid = bounded(() => validator(data));
  } finally {
    // the account's evaluation budget pays for its validations as for its evaluations
    tenancy?.onWork(performance.now() - started);
  }
  if (valid) return;
  const details: FieldDetail[] = [];
  const seen = new Set<string>();
  for (const error of validator.errors ?? []) {
    const child = childOf(error);
    const pointer = child === undefined ? error.instancePath : `${error.instancePath}/${child.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const detail = { field: `data${cutPointer(pointer)}`, reason: keywordReasons[error.keyword] ?? 'Check this value against its data rule.' };
    const key = `${detail.field}\u0000${detail.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
    if (details.length === 16) break;
  }
  throw new DomainError('template_data_invalid', { details });
}
