import type { ServerResponse } from 'node:http';
import { SessionError } from '../errors';

/**
 * ApiError is a request the API refuses: a stable `code`, as the store's errors have, and
 * the HTTP status it is sent with.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** The HTTP status of the store's error codes that are the caller's doing; the rest are 500. */
const STATUS_OF_CODE: Record<string, number> = {
  SESSION_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  SNAPSHOT_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  AMBIGUOUS_ID: 400,
  INVALID_ARGUMENT: 400,
  SESSION_CORRUPT: 409,
  SQLITE_BUSY: 503,
};

/** sendJSON sends a JSON document; API answers are never cached (they hold session data). */
export function sendJSON(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

/**
 * sendError sends `{ error: { code, message } }`: an ApiError or a SessionError with its own
 * code, anything else as INTERNAL (500) without its stack.
 */
export function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof ApiError) {
    sendJSON(res, err.status, { error: { code: err.code, message: err.message } });
  } else if (err instanceof SessionError) {
    sendJSON(res, STATUS_OF_CODE[err.code] ?? 500, { error: { code: err.code, message: err.message } });
  } else {
    const message = err instanceof Error ? err.message : String(err);
    sendJSON(res, 500, { error: { code: 'INTERNAL', message } });
  }
}
