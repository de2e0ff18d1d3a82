import { principalValues, principalValuesFor } from '../../../../bench/own-app/sign-in/principal-values.js';
import { SIGNED_IN, TOKEN, USER_ID, adminPrincipal } from './principals.js';

describe('principalValues', () => {
  it('reads the account from the bearer token and from authenticate()’s params named for a user', () => {
    const values = principalValues({
      headers: SIGNED_IN.headers,
      params: { userId: '42', slug: 'welcome' },
    });
    expect(values.map((v) => v.value)).toEqual(expect.arrayContaining([USER_ID, '42', TOKEN]));
    expect(values.map((v) => v.value)).not.toContain('welcome');
    expect(values.find((v) => v.value === USER_ID)).toEqual({
      value: USER_ID,
      kind: 'account',
      source: "the token's id",
    });
  });
});

describe('principalValuesFor: whose own an id is', () => {
  it('a short id is the principal’s only for an entity of its kind: product 1 is not user 1', () => {
    const principal = adminPrincipal();
    expect(principalValuesFor('product', principal, ['1', 'admin'])).not.toContain('1');
    expect(principalValuesFor('user', principal, ['1'])).toContain('1');
    expect(principalValuesFor('role', principal)).toContain('1');
  });

  it('a value as long as a uuid names the principal wherever it stands', () => {
    expect(principalValuesFor('product', principalValues(SIGNED_IN))).toContain(USER_ID);
  });
});
