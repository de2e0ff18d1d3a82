import { principalValues } from '../../../../bench/own-app/sign-in/principal-values.js';

/** Principals the sign-in specs judge writes and witnesses against. */
export const USER_ID = '3f0e9c57-2a51-4f7e-9a54-6f1d2b3c4d5e';
/** A JWT as passport-jwt apps issue it: the signed-in user's id in `id`, the signature not read. */
export const TOKEN = `h.${Buffer.from(JSON.stringify({ id: USER_ID, role: 'admin' })).toString('base64url')}.sig`;
export const SIGNED_IN = { headers: { authorization: `Bearer ${TOKEN}` }, params: {} };

/** An admin starter's principal: an int id in the token, as TypeORM apps on MySQL issue it, its username from /me. */
export const ADMIN = { id: 1, username: 'admin', email: 'admin@example.com', role: { id: 1, name: 'admin' } };
export const ADMIN_TOKEN = `h.${Buffer.from(JSON.stringify({ sub: 1, username: 'admin' })).toString('base64url')}.sig`;
export const adminPrincipal = () =>
  principalValues(
    { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, params: {} },
    { path: '/user/profile', status: 200, body: ADMIN, varies: [] },
  );
