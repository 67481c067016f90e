// node agents-blocked-child.mjs <db> <sessionId | memory> <prompt> [kill]
// A process of an app on the OpenAI Agents SDK whose output guardrail blocks the final
// answer: the runner keeps the turn's retained items through the session's
// applyHistoryTransaction. With `kill`, the process SIGKILLs itself in the middle of that
// transaction, once its first message is on disk. Prints the items after the run. With
// `memory` for the session id, the SDK's own MemorySession is the session.
import { Agent, MemorySession, Usage, run, setTracingDisabled, tool, OutputGuardrailTripwireTriggered } from '@openai/agents';
import { SessionkeepAgentsSession } from 'sessionkeep/openai-agents';
import { z } from 'zod';
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 5) process.exit(0);
setTracingDisabled(true);
const [db, sessionId, prompt, kill] = process.argv.slice(2);
const session = sessionId === 'memory' ? new MemorySession() : new SessionkeepAgentsSession(openStore(db).openSession(sessionId));

if (kill === 'kill') {
  const apply = session.applyHistoryTransaction.bind(session);
  session.applyHistoryTransaction = async (args) => {
    const ingest = session.session.ingest.bind(session.session);
    session.session.ingest = (chunk) => {
      ingest(chunk);
      if (chunk.type === 'done') { // the transaction's first message is written: let it reach the disk, then die
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
        process.kill(process.pid, 'SIGKILL');
      }
    };
    return apply(args);
  };
}

const model = {
  async getResponse(request) {
    const last = request.input.at(-1);
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 1, totalTokens: 11 });
    if (last?.type === 'function_call_result') {
      return { usage, responseId: 'resp_2', output: [{ type: 'message', id: 'msg_2', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'The secret is 42.' }] }] };
    }
    return {
      usage, responseId: 'resp_1',
      output: [
        { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'Look it up.' }] },
        { type: 'function_call', id: 'fc_1', callId: 'call_1', name: 'lookup', arguments: '{"key":"secret"}', status: 'completed' },
      ],
    };
  },
  async *getStreamedResponse() {
    throw new Error('the scripted model does not stream');
  },
};
const lookup = tool({ name: 'lookup', description: 'Looks a key up', parameters: z.object({ key: z.string() }), execute: async () => '42' });
const agent = new Agent({
  name: 'Guarded', model, tools: [lookup],
  outputGuardrails: [{ name: 'no secrets', execute: async ({ agentOutput }) => ({ tripwireTriggered: String(agentOutput).includes('secret'), outputInfo: {} }) }],
});
let blocked = false;
try {
  await run(agent, prompt, { session });
} catch (err) {
  if (!(err instanceof OutputGuardrailTripwireTriggered)) throw err;
  blocked = true;
}
process.stdout.write(JSON.stringify({ blocked, items: await session.getItems() }) + '\n');
