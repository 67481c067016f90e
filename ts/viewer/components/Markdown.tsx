// Markdown shows a message's text rendered (sanitized: ../markdown.ts), folded to its start
// when very long, as LongText folds plain text.
import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../markdown';
import { LongText } from './LongText';

/** RENDER_LIMIT: a text longer than this is shown as plain text, folded. */
const RENDER_LIMIT = 200_000;

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => (text.length <= RENDER_LIMIT ? renderMarkdown(text) : null), [text]);
  if (html === null) return <LongText class="text" text={text} />;
  return <div class="text markdown" data-testid="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
