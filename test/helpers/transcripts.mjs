// Reading the real transcripts in ../shared/fixtures/real the way the tests need them:
// their records as JSON, and a census of what a resume must not lose.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REAL = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'fixtures', 'real');
export const CLAUDE_CODE = path.join(REAL, 'claude_code');
export const CODEX = path.join(REAL, 'codex');

/** jsonlFiles lists the .jsonl files of a fixture folder, sorted. */
export function jsonlFiles(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => path.join(dir, f));
}

/**
 * readRecords parses a JSONL file: the records (JSON objects, with their line numbers) and
 * the numbers of the lines that are not records.
 */
export function readRecords(file) {
  const records = [];
  const bad = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const value = JSON.parse(line);
      if (value && typeof value === 'object' && !Array.isArray(value)) records.push({ line: i + 1, value });
      else bad.push(i + 1);
    } catch {
      bad.push(i + 1);
    }
  });
  return { records, bad };
}

/** blocksOf returns a message's content as blocks: a string is one text block. */
export function blocksOf(message) {
  if (!message) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content : [];
}

/**
 * census counts, over messages given with their sidechain flag, what a resume must not lose:
 * tool calls, tool results and the failed ones, thinking and the signed ones, images (in
 * messages and inside tool results), and sidechain records.
 */
export function census(items) {
  const n = { records: 0, tool_use: 0, tool_result: 0, is_error: 0, thinking: 0, signed_thinking: 0, image: 0, sidechain: 0 };
  const countImages = (blocks) => {
    for (const b of blocks) {
      if (b.type === 'image') n.image++;
      if (b.type === 'tool_result' && Array.isArray(b.content)) countImages(b.content);
    }
  };
  for (const { message, isSidechain } of items) {
    n.records++;
    if (isSidechain) n.sidechain++;
    const blocks = blocksOf(message);
    for (const b of blocks) {
      if (b.type === 'tool_use') n.tool_use++;
      if (b.type === 'tool_result') n.tool_result++;
      if (b.type === 'tool_result' && b.is_error === true) n.is_error++;
      if (b.type === 'thinking') n.thinking++;
      if (b.type === 'thinking' && typeof b.signature === 'string' && b.signature !== '') n.signed_thinking++;
    }
    countImages(blocks);
  }
  return n;
}

/**
 * allEnvelopes returns every record of session id, on every branch, through sessionkeep's own
 * JSONL export (its first line describes the session). envelopes() holds only the branch that
 * ends at the session's head; a transcript's abandoned branches are stored too.
 */
export async function allEnvelopes(store, id) {
  const [, ...records] = (await store.export(id, { format: 'jsonl' })).trimEnd().split('\n');
  return records.map((line) => JSON.parse(line));
}
