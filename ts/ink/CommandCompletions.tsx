import { Box, Text } from 'ink';
import { completeSessionCommand } from '../index.js';

export interface CommandCompletionsProps {
  /** What the user has typed so far. Nothing shows unless it starts with "/". */
  input: string;
  /** At most this many rows; the rest are counted. Default 8. */
  maxRows?: number;
}

/**
 * CommandCompletions lists the session commands that fit what is being typed, under the
 * prompt, as the user types "/": each with its arguments and what it does. The first is the
 * one Tab would complete (completeSessionCommand(input)[0]).
 */
export function CommandCompletions({ input, maxRows = 8 }: CommandCompletionsProps) {
  const fits = completeSessionCommand(input);
  if (fits.length === 0) return null;
  const rows = Math.max(1, maxRows);
  const shown = fits.slice(0, rows);
  const width = Math.max(...shown.map((c) => usage(c).length));
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((c, i) => (
        <Text key={c.name} wrap="truncate-end">
          <Text color={i === 0 ? 'cyan' : undefined} bold={i === 0}>{usage(c).padEnd(width)}</Text>
          <Text dimColor>  {c.summary}</Text>
        </Text>
      ))}
      {fits.length > rows && <Text dimColor>… {fits.length - rows} more</Text>}
    </Box>
  );
}

function usage(c: { name: string; args: string }): string {
  return c.args ? `${c.name} ${c.args}` : c.name;
}
