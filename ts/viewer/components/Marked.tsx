// Marked renders a search snippet whose matches the store marked with \u0001 … \u0002:
// the marked parts in <mark>, everything as text nodes (never HTML from the data).

/** splitMarks cuts a snippet into its parts, each flagged when it is a match. */
export function splitMarks(snippet: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let marked = false;
  let text = '';
  for (const ch of snippet) {
    if (ch === '\u0001' || ch === '\u0002') {
      if (text) parts.push({ text, marked });
      text = '';
      marked = ch === '\u0001';
    } else {
      text += ch;
    }
  }
  if (text) parts.push({ text, marked });
  return parts;
}

export function Marked({ snippet }: { snippet: string }) {
  return <>{splitMarks(snippet).map((p, i) => (p.marked ? <mark key={i}>{p.text}</mark> : p.text))}</>;
}
