// node agents-child.mjs <db> run <prompt> [sessionId]  |  node agents-child.mjs <db> items <sessionId>
// A process of an app on the OpenAI Agents SDK: `run` runs an agent whose model is scripted
// (the SDK's Model interface, canned responses, no network) with a SessionkeepAgentsSession,
// in a new session or the given one, and prints the session id, the final output, the input
// each model call got and the session's items; `items` prints the items of a session.
import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents';
import { SessionkeepAgentsSession } from 'sessionkeep/openai-agents';
import { z } from 'zod';
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 4) process.exit(0);
setTracingDisabled(true);

const [db, mode, ...args] = process.argv.slice(2);
const store = openStore(db);

if (mode === 'items') {
  const session = new SessionkeepAgentsSession(store.openSession(args[0]));
  process.stdout.write(JSON.stringify(await session.getItems()) + '\n');
  process.exit(0);
}

/**
 * ScriptedModel answers like a model that calls read_config once and then answers from its
 * output; it keeps the input of every call so the test can see what the model was sent.
 */
class ScriptedModel {
  inputs = [];
  calls = 0;

  async getResponse(request) {
    this.inputs.push(request.input);
    const n = `${process.pid}_${++this.calls}`;
    const last = Array.isArray(request.input) ? request.input[request.input.length - 1] : undefined;
    const usage = new Usage({ requests: 1, inputTokens: 100, outputTokens: 10, totalTokens: 110 });
    if (last?.type === 'function_call_result') {
      return {
        usage, responseId: `resp_${n}`,
        output: [{ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `It uses port ${JSON.parse(last.output.text).port}.` }] }],
      };
    }
    return {
      usage, responseId: `resp_${n}`,
      output: [
        { type: 'reasoning', id: `rs_${n}`, content: [{ type: 'input_text', text: 'The config has it.' }], providerData: { encrypted_content: 'gAAA' } },
        { type: 'function_call', id: `fc_${n}`, callId: `call_${n}`, name: 'read_config', arguments: '{"path":"config.json"}', status: 'completed' },
      ],
    };
  }

  async *getStreamedResponse() {
    throw new Error('the scripted model does not stream');
  }
}

const model = new ScriptedModel();
const readConfig = tool({
  name: 'read_config',
  description: 'Reads a config file',
  parameters: z.object({ path: z.string() }),
  execute: async () => JSON.stringify({ port: 8080 }),
});
const agent = new Agent({ name: 'Config reader', instructions: 'Answer from the config.', model, tools: [readConfig] });
const [prompt, sessionId] = args;
const session = new SessionkeepAgentsSession(sessionId ? store.openSession(sessionId) : store.createSession());
const result = await run(agent, prompt, { session });
process.stdout.write(JSON.stringify({
  sessionId: await session.getSessionId(), finalOutput: result.finalOutput, inputs: model.inputs, items: await session.getItems(),
}) + '\n');
