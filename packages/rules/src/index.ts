// The rules of the contract that more than one package applies: limits, defaults, syntaxes and
// code lists. No dependencies, so contracts (validation), core (admission) and the renderer
// (the browser side) all read the same text and cannot drift apart.
export * from './field-reasons.ts';
export * from './fonts.ts';
export * from './ids.ts';
export * from './lengths.mjs';
export * from './limits.ts';
export * from './pdf.ts';
export * from './render-options.ts';
export * from './template-errors.ts';
