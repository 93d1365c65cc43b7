// Types of lengths.mjs (plain JavaScript, so that a worker thread loads it with Node alone).

export declare const lengthUnits: readonly ['px', 'in', 'cm', 'mm'];
export type LengthUnit = (typeof lengthUnits)[number];

export declare const lengthPattern: RegExp;
/** A length that is not zero (a page side): the same grammar, with every all-zero number left out. */
export declare const positiveLengthPattern: RegExp;

/** The length in inches, or null when the text is not a length. */
export declare function lengthInInches(text: string): number | null;

export declare const isLength: (text: string) => boolean;
