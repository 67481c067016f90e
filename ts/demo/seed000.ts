/**
 * The seed 000 demo: one process streams the "config file and port 8080" conversation
 * through sessionkeep and exits; a second process reopens the session and prints what the
 * model will see on resume — every block, the turns and the token tracker.
 *
 *   node dist/demo/seed000.js            run both phases, each in its own process
 */
import { spawnSync } from 'node:child_process';
import { openStore } from '../index';
import type { Block, StreamChunk } from '../types';
import { seedConversation } from './conversation';

function main(): void {
  const [phase, sessionId] = process.argv.slice(2);
  if (phase === '--record') return record();
  if (phase === '--resume') return resume(sessionId);
  const recorded = runPhase(['--record']);
  const id = /^session (\S+)$/m.exec(recorded)?.[1];
  if (!id) throw new Error('the record phase printed no session id');
  runPhase(['--resume', id]);
}

/** runPhase runs this script again in a new Node process, so nothing survives in memory. */
function runPhase(args: string[]): string {
  const child = spawnSync(process.execPath, [__filename, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) throw new Error(`demo phase ${args[0]} failed with status ${child.status}`);
  process.stdout.write(child.stdout.replace(/^session .*\n?$/m, ''));
  return child.stdout;
}

function record(): void {
  const store = openStore();
  const session = store.createSession({ title: 'seed 000 demo', provider: 'claude', model: 'claude-opus-4-5-20251101' });
  console.log(`Process ${process.pid} streams the conversation into ${store.path}`);
  session.appendUserMessage('Read the config file and tell me what port it uses');
  for (const chunk of seedConversation as StreamChunk[]) session.ingest(chunk);
  console.log(`  ${session.messages().length} messages recorded; the process now exits.\n`);
  console.log(`session ${session.id}`);
}

function resume(id: string): void {
  const store = openStore();
  const session = store.openSession(id);
  const messages = session.messages();
  console.log(`Process ${process.pid} reopened session ${id}.\n`);
  console.log('Before sessionkeep, a resume gave the model only the text:');
  for (const m of messages) {
    const text = m.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('');
    if (text) console.log(`  ${m.role}: ${text}`);
  }
  console.log('\nWith sessionkeep, the model sees every block:');
  for (const m of messages) {
    console.log(`  ${m.role}${m.id ? ` (${m.id}, ${m.stop_reason})` : ''}:`);
    for (const b of m.content) console.log(`    ${describe(b)}`);
  }
  console.log('\nTurns:', JSON.stringify(session.turns()));
  console.log('Token tracker:', JSON.stringify(session.tokenTracker()));
  store.close();
}

function describe(b: Block): string {
  const s = b as Record<string, any>;
  switch (b.type) {
    case 'text': return `text: ${JSON.stringify(s.text)}`;
    case 'thinking': return `thinking: ${JSON.stringify(s.thinking)} (signature ${s.signature ? 'kept' : 'none'})`;
    case 'tool_use': return `tool_use ${s.id}: ${s.name}(${JSON.stringify(s.input)})`;
    case 'tool_result': return `tool_result for ${s.tool_use_id}${s.is_error ? ' (error)' : ''}: ${JSON.stringify(s.content)}`;
    default: return `${b.type}: ${JSON.stringify(b)}`;
  }
}

main();
