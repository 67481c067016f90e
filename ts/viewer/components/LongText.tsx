// LongText shows preformatted text; past a few lines it is folded to its first line, so
// that a 2,000-line tool output does not bury the conversation. A very long text is put in
// the page only when unfolded: a page of 200 records may hold megabytes of tool output.
import { useState } from 'preact/hooks';

const FOLD_LINES = 12;
const FOLD_CHARS = 1500;
const LAZY_CHARS = 20000;

interface LongTextProps {
  text: string;
  class?: string;
  testid?: string;
}

export function LongText({ text, class: className = '', testid }: LongTextProps) {
  const [opened, setOpened] = useState(false);
  const lines = text.split('\n');
  if (lines.length <= FOLD_LINES && text.length <= FOLD_CHARS) {
    return <pre class={className} data-testid={testid}>{text}</pre>;
  }
  return (
    <details class={'long ' + className} data-testid={testid} onToggle={(e) => setOpened((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span class="first-line">{lines[0].slice(0, 160)}</span>
        <span class="size"> · {lines.length} lines, {text.length} characters</span>
      </summary>
      {(opened || text.length <= LAZY_CHARS) && <pre>{text}</pre>}
    </details>
  );
}
