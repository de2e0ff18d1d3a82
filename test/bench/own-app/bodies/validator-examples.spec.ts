import * as validators from 'class-validator';
import validator from 'validator';
import { schemaFromValidation } from '../../../../bench/own-app/bodies/body-schema.js';
import { exampleValue } from '../../../../bench/own-app/bodies/example-body.js';
import { validatorExample } from '../../../../bench/own-app/bodies/validator-examples.js';

/** A locale's region, as validatorExample reads it: `en-US` → US. */
const regionOf = (locale: string) => locale.split('-').at(-1)!.toUpperCase();

/** class-validator's own check of a value, by the name its metadata keeps. */
const accepts = (name: string, value: string, ...constraints: unknown[]) =>
  (validators as unknown as Record<string, (value: unknown, ...rest: unknown[]) => boolean>)[name](
    value,
    ...constraints,
  );

describe('validatorExample', () => {
  it('gives @IsPhoneNumber(region) a number class-validator takes for that region, and for none', () => {
    for (const region of new Set(validator.isMobilePhoneLocales.map(regionOf)))
      if (validatorExample('isPhoneNumber', [region]) !== validatorExample('isPhoneNumber', []))
        expect(accepts('isPhoneNumber', validatorExample('isPhoneNumber', [region])!, region), region).toBe(true);
    expect(accepts('isPhoneNumber', validatorExample('isPhoneNumber', [])!)).toBe(true);
  });

  it('gives @IsMobilePhone(locale) a mobile number of that locale’s region, for all but a few of the locales validator takes', () => {
    const taken = validator.isMobilePhoneLocales.filter((locale) =>
      accepts('isMobilePhone', validatorExample('isMobilePhone', [locale])!, locale),
    );
    expect(taken.length).toBeGreaterThanOrEqual(validator.isMobilePhoneLocales.length - 20);
    for (const locale of ['en-US', 'ru-RU', 'de-DE', 'en-GB', 'pt-BR', 'uk-UA', 'zh-CN', 'zh-TW', 'en-SG', 'ar-SA'])
      expect(taken, locale).toContain(locale);
    expect(accepts('isMobilePhone', validatorExample('isMobilePhone', ['any'])!, 'any')).toBe(true);
  });

  it('gives @IsPostalCode(locale) a postal code of that country, for every locale class-validator’s validator takes', () => {
    for (const locale of validator.isPostalCodeLocales)
      expect(accepts('isPostalCode', validatorExample('isPostalCode', [locale])!, locale), locale).toBe(true);
    expect(accepts('isPostalCode', validatorExample('isPostalCode', ['any'])!, 'any')).toBe(true);
  });

  it('gives each format-only validator it knows a value that validator accepts', () => {
    for (const name of [
      'isStrongPassword',
      'isHexColor',
      'isLatitude',
      'isLongitude',
      'isISO31661Alpha2',
      'isMongoId',
      'isLocale',
      'isCurrency',
      'isPort',
      'isSemVer',
      'isCreditCard',
    ])
      expect(accepts(name, validatorExample(name, [])!)).toBe(true);
  });
});

describe('@IsIP(version)', () => {
  it('gets an address of the version it names, under the name class-validator keeps it (isIp)', () => {
    expect(accepts('isIP', validatorExample('isIp', ['6'])!, '6')).toBe(true);
    expect(accepts('isIP', validatorExample('isIp', ['4'])!, '4')).toBe(true);
  });
});

describe('a DTO with @IsPhoneNumber and @IsPostalCode', () => {
  it('gets a body whose fields pass them', () => {
    const schema = schemaFromValidation({
      name: 'AddressDto',
      rules: [
        { property: 'phone', name: 'isPhoneNumber', constraints: ['RU'], each: false },
        { property: 'zip', name: 'isPostalCode', constraints: ['DE'], each: false },
      ],
      designTypes: { phone: 'String', zip: 'String' },
      nested: {},
    });
    const body = exampleValue(schema) as { phone: string; zip: string };
    expect(accepts('isPhoneNumber', body.phone, 'RU')).toBe(true);
    expect(accepts('isPostalCode', body.zip, 'DE')).toBe(true);
  });
});
