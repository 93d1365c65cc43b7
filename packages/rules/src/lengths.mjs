// PDF lengths of the render request rules: "a number (up to 4 decimals) followed by px, in, cm or mm".
//
// The one reading of that rule: up to six integer digits, an optional fraction of one to
// four digits, and a lowercase unit, nothing else. ".5mm" (no integer part, as CSS writes it)
// is a length; "1." (a dot with no digits), exponents ("1e2mm"), signs ("+1mm", "-1mm"),
// whitespace anywhere, other units and other case ("1MM") are not.
//
// Plain JavaScript (types in lengths.d.mts): @svc/codes draws in a worker thread, which loads
// its modules with Node alone, and sizes codes with these lengths.

export const lengthUnits = /** @type {const} */ (['px', 'in', 'cm', 'mm']);

export const lengthPattern = /^(\d{1,6}(?:\.\d{1,4})?|\.\d{1,4})(px|in|cm|mm)$/;
/** A length that is not zero (a page side): the same grammar, with every all-zero number left out. */
export const positiveLengthPattern = /^(?!0*(?:\.0*)?[a-z]{2}$)(\d{1,6}(?:\.\d{1,4})?|\.\d{1,4})(px|in|cm|mm)$/;

const inchesPerUnit = { px: 1 / 96, in: 1, cm: 1 / 2.54, mm: 1 / 25.4 };

/** The length in inches, or null when the text is not a length. @param {string} text */
export function lengthInInches(text) {
  const match = lengthPattern.exec(text);
  if (!match) return null;
  return Number(match[1]) * inchesPerUnit[/** @type {keyof typeof inchesPerUnit} */ (match[2])];
}

/** @param {string} text */
export const isLength = (text) => lengthPattern.test(text);
