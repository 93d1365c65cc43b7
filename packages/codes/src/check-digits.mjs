// Check digits of the numbers the symbols and payment payloads carry, each as its standard
// defines it.

/** The GTIN check digit (EAN-13, UPC-A) of the digits before it: weights 3 and 1 from the right. */
/** @param {string} digits */
export function gtinCheckDigit(digits) {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    const fromRight = digits.length - index;
    sum += Number(digits[index]) * (fromRight % 2 === 1 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** ISO 7064 MOD 97-10 over letters and digits, letters as 10..35: the IBAN's and the creditor reference's check (a valid one gives 1). */
/** @param {string} text */
function mod97(text) {
  let remainder = 0;
  for (const character of text) {
    const value = /[0-9]/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** An IBAN (no spaces, upper case) whose check digits hold: country, two digits, then 11 to 30 letters or digits. */
/** @param {string} iban */
export function ibanChecks(iban) {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** An ISO 11649 creditor reference ("RF", two check digits, 1 to 21 letters or digits) whose check digits hold. */
/** @param {string} reference */
export function creditorReferenceChecks(reference) {
  if (!/^RF[0-9]{2}[A-Z0-9]{1,21}$/.test(reference)) return false;
  return mod97(reference.slice(4) + reference.slice(0, 4)) === 1;
}

const MOD10_RECURSIVE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];

/** The Swiss QR reference (27 digits): its last digit is the recursive modulo-10 check of the 26 before it. */
/** @param {string} reference */
export function qrReferenceChecks(reference) {
  if (!/^[0-9]{27}$/.test(reference)) return false;
  let carry = 0;
  for (const digit of reference.slice(0, 26)) carry = MOD10_RECURSIVE[(carry + Number(digit)) % 10];
  return (10 - carry) % 10 === Number(reference[26]);
}
