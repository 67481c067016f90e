// SessionPage is one session: the conversation as the model saw it (paged), and beside it the
// branches, the context size by turn, the file snapshots and the next call's context.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { SessionAnswer } from '../api-types';
import { arrange } from '../conversation';
import { BranchTree } from '../components/BranchTree';
import { ContextChart } from '../components/ContextChart';
import { ConversationContext } from '../components/conversation-context';
import { DebugContext } from '../components/DebugContext';
import { ErrorNote } from '../components/ErrorNote';
import { ExportButton } from '../components/ExportButton';
import { RecordList } from '../components/RecordList';
import { SessionHeader } from '../components/SessionHeader';
import { Snapshots } from '../components/Snapshots';
import { formatCount } from '../format';
import { navigate, routeHash } from '../router';
import { useApi } from '../use-api';
import { useMessages } from '../use-messages';
import { useLive } from '../use-live';

/** How far a link to a message loads pages by itself to find it. */
const AUTO_LOAD_RECORDS = 2000;

export function SessionPage({ id, params }: { id: string; params: URLSearchParams }) {
  const leaf = params.get('leaf');
  const at = params.get('at');
  const live = useLive({ session: id });
  const details = useApi<SessionAnswer>(`sessions/${encodeURIComponent(id)}`, {}, live);
  const messages = useMessages(id, leaf, live);
  const conversation = useMemo(() => arrange(messages.envelopes), [messages.envelopes]);
  const [showAll, setShowAll] = useState(false);

  // A search hit links to its message: load pages until it is there (up to a few thousand
  // records, past which Load more is the reader's choice), then scroll to it.
  useEffect(() => {
    if (!at || messages.loading) return;
    const element = document.getElementById('m-' + at);
    if (element) {
      element.classList.add('target');
      element.scrollIntoView({ block: 'center' });
    } else if (messages.total !== null && messages.envelopes.length < Math.min(messages.total, AUTO_LOAD_RECORDS)) {
      messages.loadMore();
    }
  }, [at, messages.envelopes.length, messages.loading]);

  const selectBranch = (uuid: string | null) => navigate(routeHash('session/' + encodeURIComponent(id), { leaf: uuid ?? undefined }));
  const loaded = messages.envelopes.length;
  return (
    <section class="session-page">
      {details.data ? <SessionHeader info={details.data.info} /> : <h1 class="placeholder">{id}</h1>}
      {details.error && <ErrorNote error={details.error} />}
      <div class="session-columns">
        <div class="conversation">
          <ExportButton sessionId={id} />
          <label class="check show-all">
            <input type="checkbox" checked={showAll} onChange={(e) => setShowAll((e.currentTarget as HTMLInputElement).checked)} />
            show bookkeeping records (progress, queue, snapshots, events)
          </label>
          {leaf && (
            <p class="viewing-branch">
              Viewing another branch. <a href={routeHash('session/' + encodeURIComponent(id))}>Back to the head's branch</a>
            </p>
          )}
          <ConversationContext.Provider value={conversation}>
            <RecordList records={conversation.top} showAll={showAll} groupOrphans
              compaction={leaf ? null : details.data?.context} complete={messages.total !== null && loaded >= messages.total} />
          </ConversationContext.Provider>
          {messages.error && <ErrorNote error={messages.error} />}
          {messages.loading && <p class="loading">Loading…</p>}
          {messages.total !== null && loaded < messages.total && !messages.loading && (
            <button class="load-more" data-testid="load-more" onClick={messages.loadMore}>
              Load more ({formatCount(loaded)} of {formatCount(messages.total)} records shown)
            </button>
          )}
        </div>
        <aside class="side">
          <ContextChart sessionId={id} />
          {details.data && (
            <>
              <BranchTree branches={details.data.branches} leaf={leaf} onSelect={selectBranch} />
              <Snapshots sessionId={id} snapshots={details.data.snapshots} />
              <DebugContext report={details.data.context} />
            </>
          )}
        </aside>
      </div>
    </section>
  );
}
