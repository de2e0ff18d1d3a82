// @ts-check
// Values class-validator's format validators accept, for the body a DTO declares: a phone number for the region or
// locale @IsPhoneNumber() and @IsMobilePhone() name, a postal code for @IsPostalCode()'s, and one for each
// format-only validator (a colour, an address, a country code). A region without a mobile number of its own (one of
// the few libphonenumber's example does not pass there) gets the United States' number.
import { MOBILE_NUMBERS } from './phone-examples.js';

/** A postal code for each locale @IsPostalCode() takes (validator's list, a country code each). */
const POSTAL_CODES = /** @type {Record<string, string>} */ ({
  AD: 'AD100',
  AT: '1010',
  AU: '2000',
  AZ: 'AZ1000',
  BA: '71000',
  BD: '1000',
  BE: '1000',
  BG: '1000',
  BR: '01001-000',
  BY: '220030',
  CA: 'K1A 0B1',
  CH: '8001',
  CN: '100000',
  CO: '110111',
  CZ: '110 00',
  DE: '10115',
  DK: '1050',
  DO: '10101',
  DZ: '16000',
  EE: '10111',
  ES: '28001',
  FI: '00100',
  FR: '75001',
  GB: 'SW1A 1AA',
  GR: '105 57',
  HR: '10000',
  HT: 'HT6110',
  HU: '1051',
  ID: '10110',
  IE: 'D02 X285',
  IL: '6100000',
  IN: '110001',
  IR: '1345678901',
  IS: '101',
  IT: '00118',
  JP: '100-0001',
  KE: '00100',
  KR: '03187',
  LI: '9490',
  LK: '00100',
  LT: 'LT-01100',
  LU: '1111',
  LV: 'LV-1010',
  MC: '98000',
  MG: '101',
  MT: 'VLT 1117',
  MX: '01000',
  MY: '50000',
  NL: '1012 AB',
  NO: '0150',
  NP: '44600',
  NZ: '6011',
  PK: '44000',
  PL: '00-001',
  PR: '00901',
  PT: '1000-001',
  RO: '010011',
  RU: '101000',
  SA: '11564',
  SE: '111 22',
  SG: '018956',
  SI: '1000',
  SK: '811 01',
  TH: '10200',
  TN: '1000',
  TW: '100',
  UA: '01001',
  US: '94105',
  ZA: '0001',
  ZM: '10101',
});

/** What a format-only validator accepts, by its name in class-validator's metadata. */
const FORMAT_EXAMPLES = /** @type {Record<string, string>} */ ({
  isStrongPassword: 'Bench-Passw0rd!',
  isHexColor: '#1a2b3c',
  isLatitude: '48.8566',
  isLongitude: '2.3522',
  isLatLong: '48.8566,2.3522',
  isISO31661Alpha2: 'US',
  isISO31661Alpha3: 'USA',
  isMongoId: '507f1f77bcf86cd799439011',
  isTimeZone: 'Europe/Paris',
  isLocale: 'en-US',
  isCurrency: '10.00',
  isNumberString: '42',
  isBooleanString: 'true',
  isPort: '8080',
  isSemVer: '1.2.3',
  isHexadecimal: 'ff',
  isCreditCard: '4111111111111111',
});

const DEFAULT_REGION = 'US';

/**
 * A value the validator accepts, or null for one this module does not know.
 * @param {string} name the validator's name in class-validator's metadata (isPhoneNumber, isMobilePhone, …)
 * @param {unknown[]} constraints its arguments: a region, a locale or locales, an IP version
 * @returns {string | null}
 */
export function validatorExample(name, constraints) {
  const [first] = constraints;
  switch (name) {
    case 'isPhoneNumber':
      return MOBILE_NUMBERS[regionOf(first)] ?? MOBILE_NUMBERS[DEFAULT_REGION];
    case 'isMobilePhone':
      return MOBILE_NUMBERS[regionOf(Array.isArray(first) ? first[0] : first)] ?? MOBILE_NUMBERS[DEFAULT_REGION];
    case 'isPostalCode':
      return POSTAL_CODES[regionOf(first)] ?? POSTAL_CODES[DEFAULT_REGION];
    case 'isIp':
      return String(first) === '6' ? '2001:db8::1' : '192.0.2.1';
    default:
      return FORMAT_EXAMPLES[name] ?? null;
  }
}

/** `RU`, `ru-RU`, `any` or nothing → a region of the tables (`any` and nothing: the default). @param {unknown} given */
function regionOf(given) {
  if (typeof given !== 'string' || given === 'any') return DEFAULT_REGION;
  return given.split('-').at(-1)?.toUpperCase() ?? DEFAULT_REGION;
}
