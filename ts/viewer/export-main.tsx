// export-main: the entry of an exported session page (sessionkeep export --format html). The
// page carries the session as JSON in a script element and renders it with the viewer's own
// components, so it reads as the viewer shows it, with no server and no network.
import { render } from 'preact';
import type { Envelope, SessionAnswer } from './api-types';
import { arrange } from './conversation';
import { ConversationContext } from './components/conversation-context';
import type { CompactionReport } from './components/OwnCompaction';
import { RecordList } from './components/RecordList';
import { SessionHeader } from './components/SessionHeader';
import './app.css';

interface Exported {
  info: SessionAnswer['info'];
  envelopes: Envelope[];
  exportedAt: string;
  /** sessionkeep's latest compaction of the session, if any. */
  compaction?: CompactionReport;
}

function ExportedSession({ data }: { data: Exported }) {
  const conversation = arrange(data.envelopes);
  return (
    <main class="exported">
      <section class="session-page">
        <SessionHeader info={data.info} />
        <p class="summary">Exported by sessionkeep on {new Date(data.exportedAt).toLocaleString()}.</p>
        <div class="conversation">
          <ConversationContext.Provider value={conversation}>
            <RecordList records={conversation.top} showAll={false} groupOrphans compaction={data.compaction} complete />
          </ConversationContext.Provider>
        </div>
      </section>
    </main>
  );
}

const data = JSON.parse(document.getElementById('session-data')!.textContent!) as Exported;
render(<ExportedSession data={data} />, document.getElementById('app')!);
