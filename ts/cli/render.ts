import type { Block, Envelope } from '../types';
import type { Style } from '../render/style';
import { localTime } from '../resume-summary';

/** How many lines of a tool result or of thinking `show` prints unless --full. */
export const SHOWN_LINES = 12;

/** blockList is a message's content as blocks. */
function blocks(e: Envelope): Block[] {
  return Array.isArray(e.message?.content) ? e.message.content : [];
}

/** toolNames maps each tool_use id of the session to its tool's name, to label results. */
function toolNames(envelopes: Envelope[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of envelopes) {
    for (const b of blocks(e)) if (b.type === 'tool_use') names.set(String(b.id), String(b.name));
  }
  return names;
}

/** resultText is a tool result's content as text: the string, or its text blocks. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (b?.type === 'text' ? String(b.text) : `[${b?.type ?? 'block'}]`)).join('\n');
}

/** inputSummary is a tool call's input on one line: key: value, … */
function inputSummary(input: unknown): string {
  if (input === null || typeof input !== 'object') return JSON.stringify(input) ?? '';
  return Object.entries(input as Record<string, unknown>).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
}

function limitLines(text: string, full: boolean, style: Style): string[] {
  const lines = text.replace(/\n+$/, '').split('\n');
  if (full || lines.length <= SHOWN_LINES) return lines;
  return [...lines.slice(0, SHOWN_LINES), style.dim(`… ${lines.length - SHOWN_LINES} more lines (--full shows everything)`)];
}

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', tool_result: 'Tool results' };

/**
 * conversation renders a session for people: each message under its author and time, text
 * as it is, thinking dimmed, tool calls as name(input) and their results beneath, cut to a
 * few lines unless full.
 */
export function conversation(envelopes: Envelope[], style: Style, full: boolean): string[] {
  const names = toolNames(envelopes);
  const out: string[] = [];
  for (const e of envelopes) {
    const label = ROLE_LABEL[e.type] ?? e.type;
    const colour = e.type === 'user' ? style.cyan : e.type === 'assistant' ? style.magenta : style.dim;
    let title = `${colour('▌')} ${style.bold(label)} ${style.dim(localTime(new Date(e.timestamp)).slice(11))}`;
    if (e.isSidechain) title += style.dim(' (sidechain)');
    if (e.status !== 'complete') title += ' ' + style.yellow(`[${e.status}]`);
    out.push('', title);
    for (const b of blocks(e)) out.push(...block(b, names, style, full));
    if (e.error) out.push(style.red(`error: ${e.error}`));
  }
  return out;
}

function block(b: Block, names: Map<string, string>, style: Style, full: boolean): string[] {
  switch (b.type) {
    case 'text':
      return String(b.text).split('\n');
    case 'thinking':
      return limitLines(String(b.thinking), full, style).map((l) => style.dim(`✻ ${l}`));
    case 'redacted_thinking':
      return [style.dim('✻ [redacted thinking]')];
    case 'tool_use':
      return [`${style.green('⏺')} ${style.bold(String(b.name))}(${inputSummary(b.input)})`];
    case 'tool_result': {
      const name = names.get(String(b.tool_use_id)) ?? String(b.tool_use_id);
      const lines = limitLines(resultText(b.content), full, style);
      const mark = b.is_error ? style.red('⎿ error') : '⎿';
      return [`  ${mark} ${style.dim(name)}`, ...lines.map((l) => `    ${b.is_error ? style.red(l) : l}`)];
    }
    default:
      return [style.dim(`[${b.type}${typeof b.title === 'string' ? `: ${b.title}` : ''}]`)];
  }
}
