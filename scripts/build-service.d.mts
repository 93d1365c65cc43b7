// Types of build-service.mjs, which the set-up runs with Node alone.
export declare const compiledCondition: string;
export declare const serviceBundles: ReadonlyArray<{ entry: string; output: string }>;
export declare function buildService(root: string): Promise<void>;
