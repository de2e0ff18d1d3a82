import { json, missingKeys } from '../../../bench/model/body-checks.js';

describe('json', () => {
  const hasMessage = json((value) => (typeof value.message === 'string' ? null : 'no message'));

  it("hands a JSON body's value to the check and returns what it says", () => {
    expect(hasMessage('{"message":"Hello"}')).toBeNull();
    expect(hasMessage('{"text":"Hello"}')).toBe('no message');
  });

  it('refuses a body that is not JSON, quoting its start', () => {
    expect(hasMessage('<html>Hello</html>')).toBe('body is not JSON: "<html>Hello</html>"');
    expect(hasMessage('x'.repeat(200))).toBe(`body is not JSON: "${'x'.repeat(80)}"`);
  });
});

describe('missingKeys', () => {
  it('names the keys an object lacks, and nothing when it has them all', () => {
    expect(missingKeys({ id: 1 }, ['id', 'name', 'price'], 'the product')).toBe('the product has no name, price');
    expect(missingKeys({ id: 1, name: 'x' }, ['id', 'name'], 'the product')).toBeNull();
  });

  it('says so when the value is not an object: null, a list or a number', () => {
    for (const value of [null, [], 3])
      expect(missingKeys(value, ['id'], 'the order')).toBe('the order is not an object');
  });
});
