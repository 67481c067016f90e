// Blocks renders a message's content blocks, each by its type; a type the viewer does not know
// is shown as its JSON rather than dropped.
import { useContext } from 'preact/hooks';
import type { Block, ToolResultBlock, ToolUseBlock } from '../api-types';
import { ConversationContext } from './conversation-context';
import { DocumentView } from './DocumentView';
import { ImageView } from './ImageView';
import { LongText } from './LongText';
import { Markdown } from './Markdown';
import { Thinking } from './Thinking';
import { ToolCall } from './ToolCall';
import { ToolResult } from './ToolResult';

/** Blocks shows the blocks; `markdown` renders their text as Markdown (the assistant's). */
export function Blocks({ blocks, markdown = false }: { blocks: Block[]; markdown?: boolean }) {
  return <>{blocks.map((b, i) => <BlockView key={i} block={b} markdown={markdown} />)}</>;
}

/** reasoningText is the readable part of a Codex reasoning block: its summary texts. */
function reasoningText(block: Block): string {
  const summary = Array.isArray(block.summary) ? block.summary : [];
  return summary.map((s: any) => (typeof s?.text === 'string' ? s.text : '')).filter(Boolean).join('\n\n');
}

function BlockView({ block, markdown }: { block: Block; markdown: boolean }) {
  const conversation = useContext(ConversationContext);
  switch (block.type) {
    case 'text':
      return markdown ? <Markdown text={String(block.text ?? '')} /> : <div class="text">{String(block.text ?? '')}</div>;
    case 'thinking':
      return <Thinking text={String(block.thinking ?? '')} />;
    case 'redacted_thinking':
      return <Thinking text="" redacted />;
    case 'reasoning':
      return <Thinking text={reasoningText(block)} />;
    case 'tool_use':
      return <ToolCall call={block as ToolUseBlock} />;
    case 'tool_result':
      // Shown with its call when the call is loaded.
      return conversation.calls.has((block as ToolResultBlock).tool_use_id) ? null : <ToolResult result={block as ToolResultBlock} />;
    case 'image':
      return <ImageView block={block} />;
    case 'document':
      return <DocumentView block={block} />;
    default:
      return <LongText class="unknown-block" text={`[${block.type}] ` + JSON.stringify(block, null, 2)} />;
  }
}
