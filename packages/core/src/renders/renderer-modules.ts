// The renderer is loaded at run time, not bundled: its template sandbox starts worker threads
// from its own files and its browser pool drives a native Chromium. Node resolves the
// package from node_modules; the web and worker processes run under the tsx loader.
const rendererModule = '@svc/renderer';
const templateModule = '@svc/renderer/template';

export type RendererModule = typeof import('@svc/renderer');
export type TemplateModule = typeof import('@svc/renderer/template');

let renderer: Promise<RendererModule> | undefined;
let template: Promise<TemplateModule> | undefined;

export function loadRenderer(): Promise<RendererModule> {
  renderer ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ rendererModule);
  return renderer;
}

export function loadTemplateEngine(): Promise<TemplateModule> {
  template ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ templateModule);
  return template;
}
