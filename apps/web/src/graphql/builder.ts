import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import ValidationPlugin from '@pothos/plugin-validation';
import { DomainError } from '@svc/core';
import type { GraphqlContext } from './context.ts';

/**
 * The bounds a query must stay within, checked before anything resolves: nesting depth, the
 * number of selected fields, and complexity (every field costs 1; a list multiplies what it
 * selects by the page size it asks for).
 */
export const queryLimits = { depth: 8, breadth: 200, complexity: 20_000 } as const;

export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ComplexityPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 10,
    limit: queryLimits,
    complexityError: () => new DomainError('query_too_complex'),
  },
  validation: {
    // argument rules fail like a REST body: invalid_request, with the argument paths in details
    validationError: (failure) =>
      new DomainError('invalid_request', {
        details: failure.issues.map((issue) => ({
          field: (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.').slice(0, 260) || 'arguments',
          reason: 'invalid value',
        })),
      }),
  },
});

builder.scalarType('DateTime', {
  description: 'A point in time, as an ISO 8601 UTC string with milliseconds (the same text REST answers).',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime())) throw new DomainError('invalid_request', { details: [{ field: 'DateTime', reason: 'invalid value' }] });
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({
  description: `Reads for operators. Objects are named by id across all accounts; an unknown id answers null. Limits (query_too_complex): depth ${queryLimits.depth}, ${queryLimits.breadth} selected fields, complexity ${queryLimits.complexity} (each field 1; a list multiplies its selection by the page size asked for, or by its bound).`,
});
builder.mutationType({
  description: 'Operator actions. Each runs the same use-case as the CLI or REST and writes one audit row (operator, action, target, time).',
});

/** The page size argument of every list: 1 to 100, default 20. */
export const pageSize = { min: 1, max: 100, default: 20 } as const;
