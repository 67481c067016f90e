// profile.mjs writes a pprof CPU profile of the addon's Go code while it runs one workload
// of the benchmark, so the figures of bench/README.md can be traced to functions:
//
//   node bench/profile.mjs w1 [out.prof]        W1: 500 turns through the adapter, five times
//   node bench/profile.mjs restore [out.prof]   envelopesAsync() of the 2,000-message session
//   node bench/profile.mjs list [out.prof]      listSessions of the 1,000 sessions, four fields
//   go tool pprof -top -cum build/Release/sessionkeep.node out.prof
//
// restore and list read the datasets `make bench` prepared in build/bench-data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');
const PREP = path.join(ROOT, 'build', 'bench-data', 'prep', 'sessionkeep');
const addon = require(path.join(ROOT, 'build', 'Release', 'sessionkeep.node'));
const { openStore } = require(path.join(ROOT, 'dist', 'index.js'));

/** ourId returns sessionkeep's id of a harness session of a prepared dataset. */
function ourIds(dir) {
  return fs.readFileSync(path.join(dir, 'bench-ids.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t')[1]);
}

/** forMs repeats an async step for ms milliseconds and returns how many times it ran. */
async function forMs(ms, step) {
  let n = 0;
  for (const t0 = performance.now(); performance.now() - t0 < ms; n++) await step();
  return n;
}

const workloads = {
  async w1() {
    const A = await import(path.join(HERE, 'adapter.mjs'));
    const { chunks } = await import(path.join(ROOT, 'build', 'shared-bench', 'gen.mjs'));
    const events = [...chunks({ turns: 500, seed: 'conv-500' })];
    for (let run = 0; run < 5; run++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-profile-'));
      const st = A.open(dir);
      const w = st.session('w1');
      for (const ev of events) w.push(ev);
      w.end();
      await st.sync();
      await st.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return '5 ingests of W1';
  },
  async restore() {
    const dir = path.join(PREP, 'w23');
    const store = openStore(path.join(dir, 'sessions.db'));
    const s = store.openSession(ourIds(dir)[0]);
    const n = await forMs(4000, () => s.envelopesAsync());
    store.close();
    return `${n} restores of 2,000 messages`;
  },
  async list() {
    const store = openStore(path.join(PREP, 'w4', 'sessions.db'));
    const fields = ['id', 'title', 'messageCount', 'updatedAt'];
    const n = await forMs(3000, async () => store.listSessions({ fields }));
    store.close();
    return `${n} listings of 1,000 sessions`;
  },
};

const [name, out = path.join(ROOT, 'build', `${process.argv[2]}.prof`)] = process.argv.slice(2);
if (!workloads[name]) {
  console.error(`usage: node bench/profile.mjs ${Object.keys(workloads).join('|')} [out.prof]`);
  process.exit(2);
}
addon.__startCPUProfile(out);
const what = await workloads[name]();
addon.__stopCPUProfile();
console.log(`${what}; profile in ${out}\ngo tool pprof -top -cum ${path.join(ROOT, 'build', 'Release', 'sessionkeep.node')} ${out}`);
