/** The fixed FieldDetail reasons of the contract's error rules. */
export const fieldReasons = [
  'malformed JSON',
  'missing field',
  'unknown field',
  'wrong type',
  'invalid value',
  'A required value is missing.',
  'Use the expected value type.',
  'Declare this variable before using it.',
  'Choose an allowed value.',
  'Use the required format.',
  'Add a value.',
  'Use a shorter value.',
  'Use a number within the allowed range.',
  'Check this value against its data rule.',
] as const;

export type FieldReason = (typeof fieldReasons)[number];
