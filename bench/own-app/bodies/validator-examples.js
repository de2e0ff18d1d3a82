// @ts-check
// Values class-validator's format validators accept, for the body a DTO declares: a phone number for the region or
// locale @IsPhoneNumber() and @IsMobilePhone() name, a postal code for @IsPostalCode()'s, and one for each
// format-only validator (a colour, an address, a country code). A region not in the table gets the United States'.

/** Mobile numbers in international form, each valid for its region as a phone and as a mobile number. */
const PHONES = /** @type {Record<string, string>} */ ({
  US: '+12015550123',
  CA: '+12042345678',
  GB: '+447400123456',
  DE: '+4915123456789',
  FR: '+33612345678',
  ES: '+34612345678',
  IT: '+393123456789',
  NL: '+31612345678',
  PL: '+48512345678',
  UA: '+380501234567',
  BY: '+375291234567',
  RU: '+79123456789',
  KZ: '+77012345678',
  UZ: '+998912345678',
  TR: '+905012345678',
  EG: '+201001234567',
  NG: '+2348021234567',
  IN: '+919123456789',
  PK: '+923012345678',
  CN: '+8613123456789',
  JP: '+819012345678',
  KR: '+821012345678',
  VN: '+84912345678',
  ID: '+6281234567890',
  AU: '+61412345678',
  BR: '+5511961234567',
  MX: '+522221234567',
});

/** Postal codes by the locale @IsPostalCode() takes (a country code). */
const POSTAL_CODES = /** @type {Record<string, string>} */ ({
  US: '94105',
  CA: 'K1A 0B1',
  GB: 'SW1A 1AA',
  DE: '10115',
  FR: '75001',
  ES: '28001',
  IT: '00118',
  NL: '1012 AB',
  PL: '00-001',
  UA: '01001',
  BY: '220030',
  RU: '101000',
  PK: '44000',
  IN: '110001',
  CN: '100000',
  JP: '100-0001',
  KR: '03187',
  ID: '10110',
  AU: '2000',
  BR: '01001-000',
  MX: '01000',
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
      return PHONES[regionOf(first)] ?? PHONES[DEFAULT_REGION];
    case 'isMobilePhone':
      return PHONES[regionOf(Array.isArray(first) ? first[0] : first)] ?? PHONES[DEFAULT_REGION];
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
