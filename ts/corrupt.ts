import { native, Handle } from './native';

/**
 * parseStored parses messages read from a session. Stored blocks cross as the JSON they were
 * stored as, never decoded on the way, so a damaged block shows first as JSON that does not
 * parse; the session is then checked natively, which marks it corrupted and throws
 * SessionError SESSION_CORRUPT saying which block is damaged.
 */
export function parseStored<T>(h: Handle, json: string): T {
  try {
    return JSON.parse(json);
  } catch (err) {
    if (err instanceof SyntaxError) native.verifySession(h);
    throw err;
  }
}
