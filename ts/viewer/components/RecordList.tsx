// RecordList renders records in order: messages, compaction markers and system notices; a
// record that only carries results shown beside their calls is left out, and bookkeeping
// records (progress, queue operations, snapshots, Codex events) only when asked for.
// sessionkeep's own compaction, which writes no record, is marked where it was made.
import { useContext } from 'preact/hooks';
import type { Envelope } from '../api-types';
import { compactionPlace, groupOrphanChains, onlyPairedResults, recordKind } from '../conversation';
import { ConversationContext } from './conversation-context';
import { Message } from './Message';
import { Notice } from './Notice';
import { OwnCompaction, type CompactionReport } from './OwnCompaction';

interface RecordListProps {
  records: Envelope[];
  showAll: boolean;
  /** At the top level: a subagent's records without their call loaded go in a box of their own. */
  groupOrphans?: boolean;
  /** sessionkeep's latest compaction of the records, marked among them at the time it was made. */
  compaction?: CompactionReport | null;
  /** Every record is loaded: a compaction made after the last of them goes at the end. */
  complete?: boolean;
}

export function RecordList({ records, showAll, groupOrphans = false, compaction = null, complete = false }: RecordListProps) {
  const conversation = useContext(ConversationContext);
  const items = groupOrphans ? groupOrphanChains(records) : records;
  const place = compaction?.boundary ? compactionPlace(items, compaction.boundary.createdAt, complete) : null;
  const shown = items.map((item) => {
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
  });
  if (place !== null) shown.splice(place, 0, <OwnCompaction key="sessionkeep-compaction" report={compaction} />);
  return <>{shown}</>;
}
