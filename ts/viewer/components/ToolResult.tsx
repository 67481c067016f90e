// ToolResult is what a tool gave back: text (folded when long), images, and the exit code and
// stderr the tool recorded.
import type { Block, ToolResultBlock } from '../api-types';
import type { ToolExecution } from '../../types';
import { Blocks } from './Blocks';
import { LongText } from './LongText';

interface ToolResultProps {
  result: ToolResultBlock;
  execution?: ToolExecution;
  error?: boolean;
}

export function ToolResult({ result, execution, error = result.is_error === true }: ToolResultProps) {
  const content = result.content;
  return (
    <div class={'tool-result' + (error ? ' error' : '')} data-testid="tool-result">
      <div class="result-head">
        {error ? 'error' : 'result'}
        {typeof execution?.exitCode === 'number' && <span> · exit {execution.exitCode}</span>}
        {typeof execution?.durationMs === 'number' && execution.durationMs > 0 && <span> · {execution.durationMs} ms</span>}
        {execution?.interrupted && <span> · interrupted</span>}
      </div>
      {typeof content === 'string' ? (
        <LongText text={content} />
      ) : Array.isArray(content) ? (
        (content as Block[]).map((b, i) =>
          b.type === 'text' ? <LongText key={i} text={String(b.text ?? '')} /> : <Blocks key={i} blocks={[b]} />,
        )
      ) : (
        <span class="empty">(no content)</span>
      )}
      {typeof execution?.stderr === 'string' && execution.stderr && <LongText class="stderr" text={execution.stderr} />}
    </div>
  );
}
