import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** newToken is the secret the printed URL carries: 32 random bytes, base64url. */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * hostAllowed says whether the request names this server as 127.0.0.1 or localhost on its
 * port. A page of another site whose name an attacker points at 127.0.0.1 (DNS rebinding)
 * sends its own name in Host, so it is refused before the token is even looked at.
 */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * tokenAllowed says whether the request carries `Authorization: Bearer <token>`, compared in
 * constant time. A custom header, not a cookie: the browser never sends it on its own, and a
 * page of another origin cannot add it without a preflight, which the server refuses.
 */
export function tokenAllowed(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}
