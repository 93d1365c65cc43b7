// Writes the operator schema to apps/web/schema.graphql: `npx tsx apps/web/src/graphql/print-schema.ts`.
// apps/web/test/graphql-schema.test.ts fails while the file and the code differ.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaText } from './schema.ts';

export const schemaFile = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

writeFileSync(schemaFile, schemaText());
process.stdout.write(`wrote ${schemaFile}\n`);
