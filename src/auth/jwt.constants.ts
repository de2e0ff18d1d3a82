/** The only algorithm the guard accepts: a token with alg "none", HS512 or RS256 is refused. */
export const JWT_ALGORITHM = 'HS256';
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
