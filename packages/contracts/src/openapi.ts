import { z } from 'zod';
import { NoQuery } from './common.ts';
import { ErrorEnvelope } from './envelope.ts';
import { type ErrorCode, errorDefinition } from './errors.ts';
import { openApiDescription } from './openapi-guide.ts';
import { authErrorsOf, commonErrors, csrfHeaderName, defineOperation, type Operation, sessionCookieName } from './operation.ts';
import { schemaRegistry } from './registry.ts';

export const OpenApiDocument = z.record(z.string(), z.unknown());

export const getOpenApiOperation = defineOperation({
  operationId: 'getOpenApi',
  method: 'get',
  path: '/v1/openapi.json',
  tag: 'Public',
  summary: 'The machine-readable API contract (OpenAPI 3.1)',
  auth: 'none',
  query: NoQuery,
  responses: { 200: { description: 'The contract', schema: OpenApiDocument } },
  errors: [],
});

type JsonSchema = Record<string, unknown>;

const componentRef = (id: string) => `#/components/schemas/${id}`;

function components(io: 'input' | 'output'): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(schemaRegistry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: componentRef,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

function inlineSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const id = schemaRegistry.get(schema)?.id;
  if (id) return { $ref: componentRef(id) };
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    metadata: schemaRegistry,
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(operation: Operation) {
  const list: JsonSchema[] = [];
  const add = (location: 'path' | 'query', shape: z.ZodObject | undefined) => {
    if (!shape) return;
    for (const [name, field] of Object.entries(shape.shape as Record<string, z.ZodType>)) {
      list.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        schema: inlineSchema(field, 'input'),
      });
    }
  };
  add('path', operation.params);
  add('query', operation.query);
  if (operation.idempotencyKey) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: operation.idempotencyKey === 'required',
      description: '1 to 255 printable ASCII characters; a repeat with the same logical request replays the first answer.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
    });
  }
  return list;
}

const requestIdHeader = {
  'x-request-id': { description: 'Unique id of this request (UUID), equal to error.request_id', schema: { type: 'string', format: 'uuid' } },
};

function errorResponses(operation: Operation) {
  const codes = new Set<ErrorCode>([...commonErrors, ...authErrorsOf(operation.auth), ...operation.errors]);
  // a route with a query schema refuses parameters it does not list
  if (operation.query) codes.add('invalid_request');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = errorDefinition(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${list.sort().join(', ')}`,
      headers: {
        ...requestIdHeader,
        ...(status === 429 ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } : {}),
      },
      content: { 'application/json': { schema: { $ref: componentRef('ErrorEnvelope') } } },
    };
  }
  return responses;
}

const securityByAuth = {
  bearer: [{ apiKey: [] }],
  bearer_or_session: [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  none: [],
} satisfies Record<Operation['auth'], unknown[]>;

function securityOf(operation: Operation) {
  return securityByAuth[operation.auth];
}

function csrfParameter(operation: Operation): JsonSchema[] {
  if (operation.auth !== 'session' && operation.auth !== 'bearer_or_session') return [];
  if (operation.method === 'get') return [];
  return [
    {
      name: csrfHeaderName,
      in: 'header',
      required: operation.auth === 'session',
      description: 'With the session cookie: the csrf_token from GET /v1/me (403 csrf_rejected when missing or different). Not needed with an API key.',
      schema: { type: 'string' },
    },
  ];
}

function operationObject(operation: Operation): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = {
      description: response.description,
      headers: { ...requestIdHeader, ...response.headers },
      ...(response.schema
        ? { content: { [response.contentType ?? 'application/json']: { schema: inlineSchema(response.schema, 'output') } } }
        : response.mediaTypes
          ? { content: Object.fromEntries(response.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }
          : {}),
    };
  }
  Object.assign(responses, errorResponses(operation));
  const params = [...parameters(operation), ...csrfParameter(operation)];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    security: securityOf(operation),
    ...(params.length ? { parameters: params } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            description: `JSON body of at most ${operation.body.maxBytes} bytes.`,
            content: {
              'application/json': {
                schema: inlineSchema(operation.body.schema, 'input'),
                ...(operation.body.example === undefined ? {} : { example: operation.body.example }),
              },
            },
          },
        }
      : {}),
    ...(operation.rawBody
      ? {
          requestBody: {
            required: true,
            description: `The file's raw bytes (not JSON, not multipart), at most ${operation.rawBody.maxBytes} bytes; Content-Type names its type.`,
            content: Object.fromEntries(operation.rawBody.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
          },
        }
      : {}),
    responses,
  };
}

/** The named schemas a request body reaches through $ref: they are published in their input form. */
function referencedFrom(roots: string[], schemas: Record<string, JsonSchema>): Set<string> {
  const found = new Set<string>();
  const visit = (id: string) => {
    if (found.has(id) || !schemas[id]) return;
    found.add(id);
    JSON.stringify(schemas[id], (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(componentRef(''))) visit(value.slice(componentRef('').length));
      return value;
    });
  };
  for (const id of roots) visit(id);
  return found;
}

/**
 * A oneOf of closed object shapes names, in each branch, the other branches' fields as
 * `false` (never allowed). JSON Schema already refuses them through additionalProperties;
 * saying so lets generated clients type each branch with `field?: never`, which makes the
 * union discriminable (html together with template_id does not compile).
 */
function markExclusiveBranches(schemas: Record<string, JsonSchema>) {
  for (const schema of Object.values(schemas)) {
    const branches = ((schema.oneOf ?? []) as JsonSchema[]).map((branch) => {
      const ref = typeof branch.$ref === 'string' ? branch.$ref.slice(componentRef('').length) : undefined;
      return ref ? schemas[ref] : undefined;
    });
    if (branches.length === 0 || branches.some((branch) => branch?.additionalProperties !== false)) continue;
    const fieldsOf = (branch: JsonSchema) => Object.keys((branch.properties ?? {}) as JsonSchema);
    const allFields = new Set(branches.flatMap((branch) => fieldsOf(branch as JsonSchema)));
    for (const branch of branches as JsonSchema[]) {
      const own = new Set(fieldsOf(branch));
      const properties = branch.properties as Record<string, unknown>;
      for (const field of allFields) if (!own.has(field)) properties[field] = false;
    }
  }
}

/** One line per tag for the document's tag list (a tag without one fails the lint in e2e/openapi-tools.test.ts). */
const tagDescriptions: Record<string, string> = {
  Public: 'Without credentials: this contract, public statistics, the captcha challenge and testimonials.',
  'API keys': 'Create, list, rename, cap and revoke the secrets that authenticate /v1 requests.',
  'PDF renders': 'Render HTML, a template or a saved template version to PDF, and read the history.',
  'Image renders': 'Render HTML, a template or a saved template version to PNG, JPEG or WebP, and read the history.',
  Downloads: 'Fetch a rendered file through its signed, expiring link.',
  'Batches, carousels, image packs': 'Groups of renders from one template version, with a ZIP archive of the results.',
  'Saved templates': 'Versioned templates with a JSON schema for their data and saved canvas sizes.',
  'AI template builds': 'Build a new template from a prompt, an image or a source, one message at a time.',
  'AI template chat': 'Change a saved template by conversation; each answer proposes a draft to publish.',
  'Brand kits': 'Colours, tone guidance and assets that templates and AI builds draw on.',
  Webhooks: 'Signed notifications when a render succeeds, fails or is cancelled.',
  'Image assets': 'Upload images and fonts once and reference them from HTML and template data.',
  Account: 'The signed-in account, its balance, sessions and email identity.',
};

export interface OpenApiOptions {
  serverUrl?: string;
}

/** Builds the published OpenAPI 3.1 document from the operation catalog. */
export function buildOpenApiDocument(operations: readonly Operation[], options: OpenApiOptions = {}) {
  // ensure the envelope is registered even if no operation names it directly
  void ErrorEnvelope;
  const inputs = components('input');
  const outputs = components('output');
  const requestIds = referencedFrom(
    operations.flatMap((operation) => {
      const id = operation.body && schemaRegistry.get(operation.body.schema)?.id;
      return id ? [id] : [];
    }),
    inputs,
  );
  const schemas: Record<string, JsonSchema> = {};
  for (const id of Object.keys(outputs).sort()) schemas[id] = (requestIds.has(id) ? inputs[id] : outputs[id]) as JsonSchema;
  markExclusiveBranches(schemas);

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, JsonSchema>)[operation.method] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rendering Service API',
      version: '1.0.0',
      description: openApiDescription(),
      // the license of this description and of clients generated from it, as for the SDK package
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : [],
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name, description: tagDescriptions[name] })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key secret (svc_sk_v1_...)' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: sessionCookieName,
          description: 'The browser session from a one-use sign-in link. Writes also need the x-csrf-token header.',
        },
      },
    },
  };
}
