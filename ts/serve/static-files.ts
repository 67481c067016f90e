import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { ApiError } from './respond';

/** The viewer's files, built by ts/viewer/build.mjs beside the compiled server (dist/viewer). */
export const VIEWER_DIR = path.join(__dirname, '..', 'viewer');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The page may run only its own scripts and talk only to this server; images may be data:
 * URLs (the session's own images). The token is in the first URL, so no Referer is sent.
 */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/**
 * sendViewerFile sends `/` (index.html) or `/assets/<file>` from the viewer's folder. They
 * hold no session data, so they need no token. A path that would leave the folder is not found.
 */
export function sendViewerFile(res: ServerResponse, urlPath: string, dir = VIEWER_DIR): void {
  const rel = urlPath === '/' ? 'index.html' : decoded(urlPath.slice('/assets/'.length));
  const file = rel === undefined ? '' : path.resolve(dir, rel);
  if (!file.startsWith(dir + path.sep)) throw new ApiError(404, 'NOT_FOUND', `no file ${urlPath}`);
  let body: Buffer;
  try {
    body = fs.readFileSync(file);
  } catch {
    if (urlPath === '/') {
      throw new ApiError(503, 'VIEWER_NOT_BUILT', `the viewer is not built (no ${file}); run make build`);
    }
    throw new ApiError(404, 'NOT_FOUND', `no file ${urlPath}`);
  }
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    ...PAGE_HEADERS,
  });
  res.end(body);
}

/** decoded is a percent-encoded path segment decoded, or undefined when it is not valid. */
function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
