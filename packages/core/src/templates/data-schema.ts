// JSON schemas of saved templates: which drafts are accepted, how large and complex a
// schema may be, and how data is validated against one (ajv) with a hard time bound.
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import type { FieldDetail } from '@svc/contracts';
import AjvDraft07 from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DomainError } from '../shared/errors.ts';
import { cutPointer } from '@svc/rules';

/** Bounds of a schema (docs/decisions/saved-templates.md, Schemas); past them, template_schema_too_large or _complexity. */
export const schemaLimits = {
  bytes: 131_072,
  nodes: 1_000,
  depth: 32,
  patternChars: 512,
  uniqueItemsMaxItems: 1_000,
  /** Wall time of one validation (and of one compilation); past it, template_schema_complexity. */
  timeMs: 1_000,
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

function schemaError(code: 'template_schema_invalid' | 'template_schema_draft_unsupported' | 'template_schema_too_large' | 'template_schema_complexity') {
  return new DomainError(code, { details: [{ field: 'schema', reason: 'invalid value' }] });
}

/**
 * The complexity measure: at most 1,000 JSON objects and arrays in the whole schema and 32
 * levels of nesting; every pattern (and patternProperties key) at most 512 characters, a valid
 * Unicode regular expression without backreferences; uniqueItems only where maxItems is at
 * most 1,000 (ajv compares object items pairwise).
 */
function checkComplexity(schema: unknown): void {
  let nodes = 0;
  const walk = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object') return;
    nodes += 1;
    if (nodes > schemaLimits.nodes || depth > schemaLimits.depth) throw schemaError('template_schema_complexity');
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.pattern === 'string') checkPattern(record.pattern);
    if (record.patternProperties && typeof record.patternProperties === 'object') {
      for (const key of Object.keys(record.patternProperties)) checkPattern(key);
    }
    if (record.uniqueItems === true && !(typeof record.maxItems === 'number' && record.maxItems <= schemaLimits.uniqueItemsMaxItems)) {
      throw schemaError('template_schema_complexity');
    }
    for (const item of Object.values(record)) walk(item, depth + 1);
  };
  walk(schema, 1);
}

function checkPattern(pattern: string): void {
  if (pattern.length > schemaLimits.patternChars || /\\[1-9]|\\k</.test(pattern)) throw schemaError('template_schema_complexity');
  try {
    new RegExp(pattern, 'u');
  } catch {
    throw schemaError('template_schema_invalid');
  }
}

/** Runs synchronous work under a wall-clock bound; V8 interrupts it (regular expressions included). */
function bounded<T>(work: () => T): T {
  const context = vm.createContext({ work });
  try {
    return vm.runInContext('work()', context, { timeout: schemaLimits.timeMs }) as T;
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw schemaError('template_schema_complexity');
    }
    throw error;
  }
}

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
    if ((error as { code?: string })?.code === 'template_schema_complexity') throw error;
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
  const options = { allErrors: true, strict: false, validateFormats: true, unicodeRegExp: true } as const;
  const ajv = draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new AjvDraft07(options);
  addFormats(ajv);
  return ajv;
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
 * Validates data; failures answer 400 template_data_invalid with at most 16 details whose
 * field is data plus a JSON Pointer and whose reason is one of the spec's fixed texts
 * (never ajv's message or the value).
 */
export function validateData(validator: Validator | null, data: unknown): void {
  if (!validator) return;
  const valid = bounded(() => validator(data));
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
