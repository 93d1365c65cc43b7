// Rewrites src/generated/openapi.ts from the contract: `node --import tsx packages/sdk/scripts/generate.ts`.
import { writeFile } from 'node:fs/promises';
import { generatedTypesPath, renderOpenApiTypes } from './openapi-types.ts';

await writeFile(generatedTypesPath, await renderOpenApiTypes());
console.log(`wrote ${generatedTypesPath}`);
