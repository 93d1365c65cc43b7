import { z } from 'zod';

/** Named schemas published under components.schemas of the OpenAPI document. */
export const schemaRegistry = z.registry<{ id: string; description?: string }>();

/** Registers a schema under a component name and returns it unchanged. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  schemaRegistry.add(schema as z.ZodType, { id, ...(description ? { description } : {}) });
  return schema;
}
