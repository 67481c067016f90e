import { useRef, useState } from 'react';
import { Text, useInput } from 'ink';

export interface PromptInputProps {
  /** Called with the line when Enter is pressed on a line that is not blank. */
  onSubmit: (line: string) => void;
  /** While false, keys are ignored and `busyText` shows instead of the line. */
  active: boolean;
  busyText: string;
  /** Told the line as it changes (the command completions follow it). */
  onChange?: (line: string) => void;
  /** Tab: the line completed, or null to leave it. */
  complete?: (line: string) => string | null;
}

/**
 * PromptInput is a one-line prompt: typing and pasting add to the line, Backspace removes,
 * Ctrl-U clears, Tab completes a command, Enter (or a line break in pasted text) submits.
 * The line lives in a ref as well as in state: keys can come faster than renders, and each
 * must see the line as the one before left it.
 */
export function PromptInput({ onSubmit, active, busyText, onChange, complete }: PromptInputProps) {
  const line = useRef('');
  const [shown, setShown] = useState('');
  const set = (value: string) => {
    line.current = value;
    setShown(value);
    onChange?.(value);
  };
  const submit = () => {
    const text = line.current.trim();
    set('');
    if (text) onSubmit(text);
  };
  useInput((input, key) => {
    if (key.return) {
      submit();
    } else if (key.backspace || key.delete) {
      set(line.current.slice(0, -1));
    } else if (key.ctrl && input === 'u') {
      set('');
    } else if (key.tab) {
      const completed = complete?.(line.current);
      if (completed) set(completed);
    } else if (input && !key.ctrl && !key.meta && !key.tab && !key.escape) {
      // Text and Enter can arrive in one read (a paste, a fast terminal): a line break
      // submits; what follows it stays on the new line, since a turn starts at once.
      const [first, ...rest] = input.split(/\r\n|\r|\n/);
      set(line.current + first);
      if (rest.length) {
        submit();
        set(rest.join(' '));
      }
    }
  }, { isActive: active });

  if (!active) return <Text dimColor>{busyText}</Text>;
  return (
    <Text>
      <Text color="cyan" bold>{'> '}</Text>
      {shown}
      <Text inverse> </Text>
    </Text>
  );
}
