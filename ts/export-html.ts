import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { native } from './native';
import { redactJSON, type RedactOptions } from './redact';
import type { Envelope } from './types';
import type { SessionDetails } from './management-types';
import type { ContextReport } from './context-types';
import type { Session } from './session';

/** EXPORT_ASSETS is where the build puts the exported page's script and style (ts/viewer/build.mjs). */
const EXPORT_ASSETS = path.join(__dirname, 'viewer');

export interface HtmlExportOptions {
  /** Replace secrets in every string of the page: true for the built-in patterns, or RedactOptions. */
  redact?: boolean | RedactOptions;
  /** sessionkeep's latest compaction of the session (compactionOf), marked where it was made. */
  compaction?: ExportedCompaction;
}

/** ExportedCompaction is what a page marks of a compaction: its boundary and summary. */
export type ExportedCompaction = Pick<ContextReport, 'boundary' | 'summary'>;

/**
 * compactionOf is sessionkeep's latest compaction of a session, as the viewer marks it: from
 * the report of the context its next call would be sent in contextWindow tokens (built as
 * /debug context builds it: nothing is summarized). Undefined when the session was never
 * compacted, or its head branch (envelopes) has no message of its own to build a context of
 * (only a subagent's, or only records that are not messages).
 */
export async function compactionOf(session: Session, envelopes: Envelope[], contextWindow: number): Promise<ExportedCompaction | undefined> {
  if (!envelopes.some((e) => e.message && !e.isSidechain)) return undefined;
  const { boundary, summary } = (await session.buildContextAsync({ contextWindow })).debug;
  return boundary ? { boundary, summary } : undefined;
}

/**
 * sessionHtml is one self-contained HTML page of a session, to send to someone: the session
 * as JSON and the viewer's own rendering of it (Markdown sanitized, code highlighted,
 * compactions marked, dark mode followed), inlined. Its Content-Security-Policy lets it load
 * nothing from anywhere (images only from data: addresses), so opening it makes no request,
 * and runs no script but its own.
 */
export function sessionHtml(info: SessionDetails, envelopes: Envelope[], options: HtmlExportOptions = {}): string {
  let data = JSON.stringify({ info, envelopes, exportedAt: new Date().toISOString(), compaction: options.compaction });
  const redact = redactJSON(options.redact);
  if (redact !== undefined) data = native.redactJSONText(data, redact);
  const script = inlineScript(fs.readFileSync(path.join(EXPORT_ASSETS, 'export.js'), 'utf8'));
  // The page's one script is allowed by its hash: a script or event handler that got into
  // the page some other way would not run, even past the sanitizer.
  const scriptHash = crypto.createHash('sha256').update(script).digest('base64');
  const style = fs.readFileSync(path.join(EXPORT_ASSETS, 'export.css'), 'utf8');
  const title = escapeHtml((info.title || info.id) + ' · sessionkeep');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${inlineStyle(style)}</style>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="session-data">${data.replace(/</g, '\\u003c')}</script>
<script>${script}</script>
</body>
</html>
`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * inlineScript keeps a script's text inside its element: the only ways out are its end tag
 * and a comment opener, which JavaScript reads the same written `<\/script` (esbuild writes
 * its strings so) and `\x3C!--`. The session's JSON has every `<` written `\u003c`.
 */
function inlineScript(text: string): string {
  return text.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '\\x3C!--');
}

/** inlineStyle is the viewer's stylesheet, which holds no end tag to break out with. */
function inlineStyle(text: string): string {
  if (/<\/style/i.test(text)) throw new Error('the viewer stylesheet holds </style>');
  return text;
}
