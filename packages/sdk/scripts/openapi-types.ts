// Turns the service's OpenAPI document into the SDK's generated types. The script that writes
// the file and the test that catches a stale file both call this, so they cannot disagree.
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, operations } from '@svc/contracts';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** Where the checked-in types live. */
export const generatedTypesPath = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

/** The command that rewrites the checked-in file, named in the stale-file test's failure. */
export const regenerateCommand = 'node --import tsx packages/sdk/scripts/generate.ts';

/** The generated module text; the document carries no server URL, so the output is the same everywhere. */
export async function renderOpenApiTypes(): Promise<string> {
  const document = buildOpenApiDocument(operations) as unknown as OpenAPI3;
  const ast = await openapiTS(document, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}
