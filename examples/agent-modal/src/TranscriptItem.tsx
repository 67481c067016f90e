import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import type { Item } from './transcript.js';

/** TranscriptItem draws one transcript item, in the manner of a coding agent's terminal UI. */
export function TranscriptItem({ item }: { item: Item }) {
  switch (item.kind) {
    case 'prompt':
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>{'> '}</Text>
          <Text bold>{item.text}</Text>
        </Box>
      );
    case 'text':
      return <Bullet color="white"><Text>{item.text}</Text></Bullet>;
    case 'thinking':
      return <Bullet color="gray"><Text dimColor italic wrap="truncate-end">✻ {firstLine(item.text)}</Text></Bullet>;
    case 'call':
      return (
        <Bullet color="green">
          <Text><Text bold>{item.name}</Text>({item.args})</Text>
        </Bullet>
      );
    case 'result':
      return (
        <Box paddingLeft={2}>
          <Text dimColor>{'⎿  '}</Text>
          <Box flexDirection="column">
            {item.lines.map((line, i) => (
              <Text key={i} color={item.isError ? 'red' : undefined} dimColor={!item.isError} wrap="truncate-end">{line || ' '}</Text>
            ))}
            {item.more > 0 && <Text dimColor>… +{item.more} lines</Text>}
          </Box>
        </Box>
      );
    case 'command':
      return (
        <Box flexDirection="column" marginTop={1}>
          <Text color="magenta" bold>{'> '}{item.line}</Text>
          <Box paddingLeft={2}><Text color={item.isError ? 'red' : undefined}>{item.text}</Text></Box>
        </Box>
      );
    case 'note':
      return (
        <Box paddingLeft={2}>
          <Text color={item.tone === 'error' ? 'red' : item.tone === 'warn' ? 'yellow' : undefined} dimColor={item.tone === 'dim'}>
            {'⎿  '}{item.text}
          </Text>
        </Box>
      );
  }
}

function Bullet({ color, children }: { color: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={2} flexShrink={0}><Text color={color}>●</Text></Box>
      <Box flexGrow={1}>{children}</Box>
    </Box>
  );
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim())?.trim() ?? '';
}
