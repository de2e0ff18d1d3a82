import {
  REFUSED_SIGNED_OUT,
  fetchSignedOut,
  principalOwn,
  signedOutKey,
} from '../../../../bench/own-app/routes/list-answers.js';
import type { AppClient } from '../../../../bench/own-app/sign-in/authenticate.js';

const KEYS = ['id', 'uuid'];
const UUID = '6f1c2a4e-2b7d-4c1e-9a51-0d6b8e3f5a21';

describe('principalOwn: a list’s values are the principal’s own only where the list differs by principal', () => {
  it('does not take product 1 for the principal’s own where signed out lists it too', () => {
    const products = [{ id: 1 }, { id: 2 }];
    expect(principalOwn(['1'], products, products, KEYS)).toEqual([]);
  });

  it('takes a value shown only signed in for the principal’s own', () => {
    const signedIn = [{ id: 1 }, { id: 2 }];
    expect(principalOwn(['1'], signedIn, [{ id: 2 }], KEYS)).toEqual(['1']);
  });

  it('takes no number of a list refused signed out for the principal’s own: nothing tells whose it is', () => {
    expect(principalOwn(['1'], [{ id: 1 }], REFUSED_SIGNED_OUT, KEYS)).toEqual([]);
  });

  it('keeps every value of a list never asked signed out', () => {
    expect(principalOwn(['1'], [{ id: 1 }], undefined, KEYS)).toEqual(['1']);
  });

  it('keeps a value as long as a uuid, which names the principal wherever it stands', () => {
    const users = [{ uuid: UUID }];
    expect(principalOwn([UUID], users, users, KEYS)).toEqual([UUID]);
    expect(principalOwn([UUID], users, REFUSED_SIGNED_OUT, KEYS)).toEqual([UUID]);
  });
});

describe('fetchSignedOut', () => {
  it('asks each list without the sign-in’s headers and keeps its body, or that it was refused', async () => {
    const sent: Array<{ path: string; headers: Record<string, string> | undefined }> = [];
    const client: AppClient = {
      async request(_method, path, _body, headers) {
        sent.push({ path, headers });
        return path === '/products'
          ? { status: 200, headers: {}, body: [{ id: 1 }] }
          : { status: 401, headers: {}, body: { message: 'Unauthorized' } };
      },
    };
    const answers = await fetchSignedOut(client, ['/products', '/users']);
    expect(sent).toEqual([
      { path: '/products', headers: {} },
      { path: '/users', headers: {} },
    ]);
    expect(answers.get(signedOutKey('/products'))).toEqual([{ id: 1 }]);
    expect(answers.get(signedOutKey('/users'))).toBe(REFUSED_SIGNED_OUT);
  });
});
