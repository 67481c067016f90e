// Sidechain is the conversation of a subagent, nested in the tool call that started it.
import type { Envelope } from '../api-types';
import { countOf } from '../format';
import { RecordList } from './RecordList';

export function Sidechain({ records }: { records: Envelope[] }) {
  const agent = records.find((e) => e.agentId)?.agentId;
  const messages = records.filter((e) => e.message).length;
  return (
    <details class="sidechain" data-testid="sidechain" open>
      <summary>
        Subagent{agent ? ' ' + agent : ''} · {countOf(messages, 'message')}
      </summary>
      <RecordList records={records} showAll={false} />
    </details>
  );
}
