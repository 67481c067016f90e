// Message is one user or assistant message: who, when, which model and what it cost in
// tokens, then its blocks.
import type { Envelope } from '../api-types';
import { blocksOf } from '../conversation';
import { formatCount, formatTime } from '../format';
import { Blocks } from './Blocks';

export function Message({ envelope }: { envelope: Envelope }) {
  const message = envelope.message!;
  const usage = message.usage;
  const isResult = envelope.type === 'tool_result';
  return (
    <article
      id={'m-' + envelope.uuid}
      class={'message role-' + message.role + (isResult ? ' is-result' : '') + (envelope.continuesPrevious ? ' continues' : '')}
      data-testid="message"
      data-role={message.role}
      data-uuid={envelope.uuid}
    >
      {!envelope.continuesPrevious && (
        <header class="message-head">
          <span class="role">{isResult ? 'tool results' : message.role}</span>
          {message.model && <span class="model">{message.model}</span>}
          {envelope.status !== 'complete' && <span class={'badge status-' + envelope.status}>{envelope.status}</span>}
          {envelope.error && <span class="badge status-error" title={envelope.error}>error</span>}
          {usage && (
            <span class="usage" title="input · output · cache read · cache write tokens">
              {formatCount(usage.input_tokens)} in · {formatCount(usage.output_tokens)} out
              {usage.cache_read_input_tokens ? ` · ${formatCount(usage.cache_read_input_tokens)} cache read` : ''}
              {usage.cache_creation_input_tokens ? ` · ${formatCount(usage.cache_creation_input_tokens)} cache write` : ''}
            </span>
          )}
          <span class="when">{formatTime(envelope.timestamp)}</span>
        </header>
      )}
      <Blocks blocks={blocksOf(envelope)} markdown={message.role === 'assistant'} />
    </article>
  );
}
