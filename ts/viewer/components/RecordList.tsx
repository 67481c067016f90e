// RecordList renders records in order: messages, compaction markers and system notices; a
// record that only carries results shown beside their calls is left out, and bookkeeping
// records (progress, queue operations, snapshots, Codex events) only when asked for.
import { useContext } from 'preact/hooks';
import type { Envelope } from '../api-types';
import { groupOrphanChains, onlyPairedResults, recordKind } from '../conversation';
import { ConversationContext } from './conversation-context';
import { Message } from './Message';
import { Notice } from './Notice';

interface RecordListProps {
  records: Envelope[];
  showAll: boolean;
  /** At the top level: a subagent's records without their call loaded go in a box of their own. */
  groupOrphans?: boolean;
}

export function RecordList({ records, showAll, groupOrphans = false }: RecordListProps) {
  const conversation = useContext(ConversationContext);
  const items = groupOrphans ? groupOrphanChains(records) : records;
  return (
    <>
      {items.map((item) => {
        if ('records' in item) {
          return (
            <details key={item.records[0].uuid} class="sidechain orphan" data-testid="orphan-sidechain" open>
              <summary>Subagent{item.agentId ? ' ' + item.agentId : ''} (the call that started it is not loaded)</summary>
              <RecordList records={item.records} showAll={showAll} />
            </details>
          );
        }
        const e = item;
        const kind = recordKind(e);
        if (kind === 'message') {
          return onlyPairedResults(e, conversation) ? null : <Message key={e.uuid} envelope={e} />;
        }
        if (kind === 'other' && !showAll) return null;
        return <Notice key={e.uuid} envelope={e} kind={kind} />;
      })}
    </>
  );
}
