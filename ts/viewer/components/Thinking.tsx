// Thinking is a model's thinking, folded: it is there to check, not to read through.
export function Thinking({ text, redacted = false }: { text: string; redacted?: boolean }) {
  return (
    <details class="thinking" data-testid="thinking">
      <summary>{redacted ? 'Thinking (redacted by the provider)' : `Thinking · ${text.length} characters`}</summary>
      {!redacted && <div class="text">{text}</div>}
    </details>
  );
}
