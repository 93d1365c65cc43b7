import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.ts';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.dirname(e2eDir);
const run = promisify(execFile);

/** The warnings that stay, each explained in redocly.yaml. */
const explainedWarnings = new Set(['no-ambiguous-paths', 'no-server-example.com']);
const ambiguousPairs = ['batches', 'carousels', 'image-packs'].map((kind) => `/v1/${kind}/{id}/retry|/v1/${kind}/archive/{token}`);

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
}

let workDir: string;
let contract: any;

beforeAll(async () => {
  // under e2e/node_modules, so the client programs resolve openapi-fetch like the tests do
  mkdirSync(path.join(e2eDir, 'node_modules', '.cache'), { recursive: true });
  workDir = mkdtempSync(path.join(e2eDir, 'node_modules', '.cache', 'openapi-tools-'));
  const response = await api('/v1/openapi.json');
  expect(response.status).toBe(200);
  contract = response.body;
  writeFileSync(path.join(workDir, 'openapi.json'), JSON.stringify(contract));
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the served contract in the tools that consume it', () => {
  it('passes Redocly lint with the repository rules: no errors, only the explained warnings', async () => {
    const redocly = path.join(e2eDir, 'node_modules', '.bin', 'redocly');
    const args = ['lint', path.join(workDir, 'openapi.json'), '--config', path.join(repoRoot, 'redocly.yaml'), '--format', 'json'];
    // lint exits non-zero on errors; the report on stdout says which
    // no telemetry or update check: the test machine has no internet
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run(redocly, args, { cwd: workDir, env, maxBuffer: 64 * 1024 * 1024 }).catch((error) => error as { stdout: string });
    const problems: LintProblem[] = JSON.parse(stdout.slice(stdout.indexOf('{'))).problems;
    const summary = problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`).join('\n');
    expect(problems.filter((problem) => problem.severity === 'error'), summary).toEqual([]);
    expect(problems.filter((problem) => !explainedWarnings.has(problem.ruleId)), summary).toEqual([]);
    const ambiguous = problems.filter((problem) => problem.ruleId === 'no-ambiguous-paths').map((problem) => [...problem.message.matchAll(/`([^`]+)`/g)].map((match) => match[1]).join('|'));
    expect(ambiguous.sort()).toEqual(ambiguousPairs.sort());
  }, 120_000);

  it('generates openapi-typescript types that type-check a client and refuse bad bodies', async () => {
    const dir = path.join(workDir, 'openapi-typescript');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(contract))));
    writeFileSync(path.join(dir, 'program.ts'), openapiFetchProgram());
    expect(typeErrors(path.join(dir, 'program.ts'))).toEqual([]);
  }, 120_000);

  it('generates a @hey-api/openapi-ts client that type-checks a program and refuses bad bodies', async () => {
    const dir = path.join(workDir, 'hey-api');
    await createClient({
      input: structuredClone(contract),
      output: { path: path.join(dir, 'client') },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
    writeFileSync(path.join(dir, 'program.ts'), heyApiProgram());
    expect(typeErrors(path.join(dir, 'program.ts'))).toEqual([]);
  }, 120_000);

  it('proves the programs can fail: a body of the wrong type does not compile', async () => {
    const dir = path.join(workDir, 'negative');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(contract))));
    writeFileSync(
      path.join(dir, 'program.ts'),
      [`import createClient from 'openapi-fetch';`, `import type { paths } from './schema';`, `const client = createClient<paths>({ baseUrl: 'https://svc.test' });`, `void client.POST('/v1/keys', { body: { name: 7 } });`].join('\n'),
    );
    expect(typeErrors(path.join(dir, 'program.ts'))).toHaveLength(1);
  }, 120_000);
});

type RenderCase = 'empty' | 'html with template_id' | 'template_id without data' | 'image size_id with raw html';

/** Render bodies the server refuses, each a line the generated types must refuse too. */
function renderExpectErrors(call: (body: string, kind: 'pdf' | 'image') => string, leaveOut: RenderCase[] = []): string[] {
  const bodies: [RenderCase, string, 'pdf' | 'image'][] = [
    ['empty', '{}', 'pdf'],
    ['html with template_id', `{ html: '<p>x</p>', template_id: templateId }`, 'pdf'],
    ['template_id without data', '{ template_id: templateId }', 'pdf'],
    ['image size_id with raw html', `{ html: '<p>x</p>', size_id: 'square', image: { format: 'png' } }`, 'image'],
  ];
  return bodies
    .filter(([name]) => !leaveOut.includes(name))
    .flatMap(([name, body, kind]) => [`  // @ts-expect-error the server refuses this render body (${name})`, `  ${call(body, kind)};`]);
}

function openapiFetchProgram(): string {
  return [
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './schema';`,
    `const client = createClient<paths>({ baseUrl: 'https://svc.test', headers: { authorization: 'Bearer svc_sk_v1_0' } });`,
    `const templateId = 'tpl_${'0'.repeat(32)}';`,
    `export async function calls(): Promise<void> {`,
    `  const me = await client.GET('/v1/me');`,
    `  if (me.data) { const id: string = me.data.id; void id; }`,
    `  const pdf = await client.POST('/v1/pdf', { body: { html: '<p>Invoice 7</p>', pdf: { format: 'A4' } } });`,
    `  if (pdf.data) { const status: string = pdf.data.status; void status; }`,
    `  await client.GET('/v1/templates/{template_id}/versions/{version}', { params: { path: { template_id: templateId, version: 2 } } });`,
    `  // @ts-expect-error a version is an integer`,
    `  await client.GET('/v1/templates/{template_id}/versions/{version}', { params: { path: { template_id: templateId, version: 'two' } } });`,
    `  // @ts-expect-error a webhook needs its url`,
    `  await client.POST('/v1/webhooks', { body: { events: ['render.failed'] } });`,
    `  // @ts-expect-error the list of webhooks takes no query parameters`,
    `  await client.GET('/v1/webhooks', { params: { query: { limit: 5 } } });`,
    ...renderExpectErrors((body, kind) => `await client.POST('/v1/${kind}', { body: ${body} })`),
    `}`,
    `// the union is discriminable: a saved body is told apart by its template_id`,
    `type PdfRequest = paths['/v1/pdf']['post']['requestBody']['content']['application/json'];`,
    `export function describe(body: PdfRequest): string {`,
    `  if (body.template_id !== undefined) return body.template_id + Object.keys(body.data).join();`,
    `  return body.html;`,
    `}`,
  ].join('\n');
}

function heyApiProgram(): string {
  return [
    `import { createPdf, createImage, createWebhook, getMe, getTemplateVersion, type PdfRequest } from './client';`,
    `const templateId = 'tpl_${'0'.repeat(32)}';`,
    `export async function calls(): Promise<void> {`,
    `  const me = await getMe();`,
    `  if (me.data) { const id: string = me.data.id; void id; }`,
    `  const pdf = await createPdf({ body: { html: '<p>Invoice 7</p>', pdf: { format: 'A4' } } });`,
    `  if (pdf.data) { const status: string = pdf.data.status; void status; }`,
    `  await getTemplateVersion({ path: { template_id: templateId, version: 2 } });`,
    `  // @ts-expect-error a version is an integer`,
    `  await getTemplateVersion({ path: { template_id: templateId, version: 'two' } });`,
    `  // @ts-expect-error a webhook needs its url`,
    `  await createWebhook({ body: { events: ['render.failed'] } });`,
    // @hey-api/openapi-ts 0.99 drops the `false` property schemas that keep the request shapes apart,
    // so a union member accepts the other shapes' fields (the server refuses them as unknown fields);
    // openapi-typescript types them as never
    ...renderExpectErrors((body, kind) => `await ${kind === 'pdf' ? 'createPdf' : 'createImage'}({ body: ${body} })`, [
      'html with template_id',
      'image size_id with raw html',
    ]),
    `}`,
    `// the union is discriminable: a saved body is told apart by its template_id`,
    `export function describe(body: PdfRequest): string {`,
    `  if ('template_id' in body) return body.template_id + Object.keys(body.data).join();`,
    `  return body.html;`,
    `}`,
  ].join('\n');
}

/** Type-checks one program with the compiler API; the diagnostics as text. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1} ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
