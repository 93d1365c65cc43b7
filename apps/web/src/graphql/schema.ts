import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/account.ts';
import './types/content.ts';
import './types/groups.ts';
import './types/mutations.ts';
import './types/queries.ts';
import './types/render-job.ts';
import './types/status.ts';

/** The operator schema, built once per process. */
export const schema = builder.toSchema({ sortSchema: true });

/** The schema as SDL, as checked in at apps/web/schema.graphql. */
export function schemaText(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
