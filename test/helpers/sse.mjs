// The recorded streams in ../shared/fixtures/real/sse/, read as the SDKs would receive them
// over HTTP: a fetch that answers with the captured bytes, cut into small pieces (multi-byte
// characters split across pieces included) so the SDKs' own SSE parsers do the work.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SSE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/real/sse');

/** fixtures lists the capture files whose names start with prefix. */
export function fixtures(prefix) {
  return fs.readdirSync(SSE_DIR).filter((f) => f.startsWith(prefix)).sort();
}

export function readFixture(name) {
  return fs.readFileSync(path.join(SSE_DIR, name), 'utf8');
}

/**
 * cassetteBody returns response.body.string of a VCR cassette (pydantic-ai's): a YAML
 * literal block scalar (`|`, `|+` or `|-`), whose lines are indented deeper than its key.
 */
export function cassetteBody(yaml) {
  const lines = yaml.split('\n');
  const at = lines.findIndex((l) => /^\s*string: \|[+-]?\s*$/.test(l));
  if (at < 0) throw new Error('no "string: |" block scalar in the cassette');
  const keyIndent = lines[at].match(/^\s*/)[0].length;
  const chomp = lines[at].trim().slice('string: |'.length);
  const body = [];
  let indent = -1;
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') {
      body.push('');
      continue;
    }
    const n = line.match(/^\s*/)[0].length;
    if (n <= keyIndent) break;
    if (indent < 0) indent = n;
    if (n < indent) break;
    body.push(line.slice(indent));
  }
  let text = body.join('\n');
  if (chomp === '+') return text + '\n';
  text = text.replace(/\n+$/, '');
  return chomp === '-' ? text : text + '\n';
}

/**
 * jsonLinesToSSE turns a capture of one JSON event a line (vercel/ai's *.chunks.txt) into
 * the SSE text the API sends: `event: <type>` and `data: <json>` per event. A line whose
 * event starts a new response (Responses' response.created) starts a new stream, so the
 * result is one SSE body per request.
 */
export function jsonLinesToSSE(text, { splitOn } = {}) {
  const bodies = [];
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const type = JSON.parse(line).type;
    if (bodies.length === 0 || type === splitOn) bodies.push('');
    bodies[bodies.length - 1] += `event: ${type}\ndata: ${line}\n\n`;
  }
  return bodies;
}

/**
 * sseResponse answers with body as text/event-stream, delivered in pieces of `piece` bytes.
 * Like a real fetch, an aborted `signal` fails the body with the abort reason.
 */
export function sseResponse(body, { headers = {}, piece = 7, signal } = {}) {
  const bytes = Buffer.from(body, 'utf8');
  let at = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (signal?.aborted) return controller.error(signal.reason);
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + piece)));
      at += piece;
    },
  });
  return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } });
}

/**
 * replayFetch is a fetch that answers the n-th request with bodies[n], recording each
 * request's parsed JSON body in `requests`.
 */
export function replayFetch(bodies, headers) {
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url: String(url), body: init?.body ? JSON.parse(init.body) : undefined });
    const body = bodies[requests.length - 1];
    if (body === undefined) throw new Error(`unexpected request ${requests.length} to ${url}`);
    return sseResponse(body, { headers, signal: init?.signal });
  };
  return { fetch, requests };
}

/**
 * failingFetch answers with the first `bytes` bytes of body, in pieces of 64 bytes, and then
 * fails the connection, as a dropped network does.
 */
export function failingFetch(body, bytes, headers) {
  return async () => {
    const head = Buffer.from(body, 'utf8').subarray(0, bytes);
    let at = 0;
    const stream = new ReadableStream({
      async pull(controller) {
        if (at < head.length) {
          controller.enqueue(new Uint8Array(head.subarray(at, at + 64)));
          at += 64;
        } else {
          await new Promise((r) => setTimeout(r, 5)); // what came is processed before the drop
          controller.error(new TypeError('terminated: other side closed'));
        }
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } });
  };
}
