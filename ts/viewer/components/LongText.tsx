// LongText shows preformatted text; past a few lines it is folded to its first line, so
// that a 2,000-line tool output does not bury the conversation.
const FOLD_LINES = 12;
const FOLD_CHARS = 1500;

interface LongTextProps {
  text: string;
  class?: string;
  testid?: string;
}

export function LongText({ text, class: className = '', testid }: LongTextProps) {
  const lines = text.split('\n');
  if (lines.length <= FOLD_LINES && text.length <= FOLD_CHARS) {
    return <pre class={className} data-testid={testid}>{text}</pre>;
  }
  return (
    <details class={'long ' + className} data-testid={testid}>
      <summary>
        <span class="first-line">{lines[0].slice(0, 160)}</span>
        <span class="size"> · {lines.length} lines, {text.length} characters</span>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
