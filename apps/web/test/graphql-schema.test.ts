import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { type GraphQLObjectType, isObjectType } from 'graphql';
import { schema, schemaText } from '../src/graphql/schema.ts';

const schemaFile = fileURLToPath(new URL('../schema.graphql', import.meta.url));

test('the checked-in schema.graphql is the schema the code builds (update: npx tsx apps/web/src/graphql/print-schema.ts)', () => {
  expect(readFileSync(schemaFile, 'utf8')).toBe(schemaText());
});

test('no field hands out a secret or customer input, and every field with customer content says so', () => {
  const fields = Object.values(schema.getTypeMap())
    .filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'))
    .flatMap((type) => Object.values(type.getFields()).map((field) => ({ name: `${type.name}.${field.name}`, field })));
  expect(fields.length).toBeGreaterThan(50);
  expect(fields.filter(({ field }) => /^secret$|verifier|^token$|html|^data$|password/i.test(field.name)).map(({ name }) => name)).toEqual([]);
  const content = ['TemplateVersion.source', 'TemplateVersion.schema', 'TemplateVersion.sizes', 'Testimonial.quote', 'Webhook.url'];
  for (const name of content) expect(fields.find((entry) => entry.name === name)?.field.description, name).toMatch(/^CUSTOMER CONTENT/);
});
