import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { getNamedType, type GraphQLObjectType, isEnumType, isInputObjectType, isObjectType } from 'graphql';
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

test('every timestamp is a DateTime and every enum speaks UPPER_CASE, mapped to the service\'s own values', () => {
  const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'));
  const fields = types
    .filter((type) => isObjectType(type) || isInputObjectType(type))
    .flatMap((type) => Object.values((type as GraphQLObjectType).getFields()).map((field) => ({ name: `${type.name}.${field.name}`, type: getNamedType(field.type).name })));
  expect(fields.filter((field) => /At$|Before$|From$/.test(field.name) && field.type !== 'DateTime')).toEqual([]);
  const enums = types.filter(isEnumType);
  expect(enums.length).toBeGreaterThanOrEqual(20);
  for (const type of enums) for (const value of type.getValues()) expect(value.name, type.name).toMatch(/^[A-Z][A-Z0-9_]*$/);
  const valueOf = (type: string, name: string) => (schema.getType(type) as any).getValue(name).value;
  expect(valueOf('ArtifactMediaType', 'APPLICATION_PDF')).toBe('application/pdf');
  expect(valueOf('WebhookEvent', 'RENDER_SUCCEEDED')).toBe('render.succeeded');
  expect(valueOf('AuditAction', 'MARK_TESTIMONIAL_REVIEWED')).toBe('markTestimonialReviewed');
  expect(valueOf('CreditBucket', 'FREE_MONTHLY')).toBe('free_monthly');
});
