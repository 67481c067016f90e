// RecordList renders records in order: messages, compaction markers and system notices; a
// record that only carries results shown beside their calls is left out, and bookkeeping
// records (progress, queue operations, snapshots, Codex events) only when asked for.
import { useContext } from 'preact/hooks';
import type { Envelope } from '../api-types';
import { onlyPairedResults, recordKind } from '../conversation';
import { ConversationContext } from './conversation-context';
import { Message } from './Message';
import { Notice } from './Notice';

interface RecordListProps {
  records: Envelope[];
  showAll: boolean;
}

export function RecordList({ records, showAll }: RecordListProps) {
  const conversation = useContext(ConversationContext);
  return (
    <>
      {records.map((e) => {
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
