// big-child.mjs is one measured step of bench/big.mjs, in a process of its own so that its
// peak RSS (Node and the Go addon share the process) is the step's alone. It prints one line
// of JSON: the step's figures with maxRssMB from process.resourceUsage(), and the peaks of
// Node's and Go's own memory, sampled every 20 ms: nodeMB (V8's heap and the memory outside
// it that V8 tracks: process.memoryUsage() heapTotal + external) and goMB (every byte the Go
// runtime mapped, the addon's __goMemory()). What SQLite allocates is in neither (it is in
// the RSS). BIG_HEAP_PROFILE=<path> writes the Go heap's profile once the import has read
// nine tenths of the file.
//   import <file> <db> <format>       import the file, noting its progress reports' times (and
//                                     printing each as "P <bytesDone> <bytesTotal>")
//   ingest <db> <kind> <mb>           one message holding a <mb> MB tool output or image
//   restore <db>                      read every session's messages back
//   export <db> <out>                 export every session to jsonl
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { openStore } = require(path.join(import.meta.dirname, '..', 'dist', 'index.js'));
const addon = require(process.env.SESSIONKEEP_ADDON_PATH ?? path.join(import.meta.dirname, '..', 'build', 'Release', 'sessionkeep.node'));
const [step, ...args] = process.argv.slice(2);
const started = performance.now();
const figures = {};
const peaks = { nodeMB: 0, goMB: 0 };
const sample = () => {
  const m = process.memoryUsage();
  peaks.nodeMB = Math.max(peaks.nodeMB, (m.heapTotal + m.external) / 1048576);
  peaks.goMB = Math.max(peaks.goMB, JSON.parse(addon.__goMemory()).goTotal / 1048576);
};
const sampler = setInterval(sample, 20);

if (step === 'import') {
  const [file, db, format] = args;
  const store = openStore(db);
  const marks = []; // [seconds, bytesDone, CPU seconds of the process] as the import goes
  let profiled = !process.env.BIG_HEAP_PROFILE;
  const result = await store.import(file, {
    format,
    onProgress: (p) => {
      const cpu = process.cpuUsage();
      marks.push([(performance.now() - started) / 1000, p.bytesDone, (cpu.user + cpu.system) / 1e6]);
      process.stdout.write(`P ${p.bytesDone} ${p.bytesTotal}\n`); // for big.mjs to kill it half way
      if (!profiled && p.bytesDone >= p.bytesTotal * 0.9) {
        profiled = true;
        addon.__writeHeapProfile(process.env.BIG_HEAP_PROFILE);
      }
    },
  });
  store.close();
  Object.assign(figures, { records: result.records, existing: result.existing, marks });
} else if (step === 'ingest') {
  const [db, kind, mb] = args;
  const store = openStore(db);
  const s = store.createSession({ projectPath: '/bench/big' });
  const size = Number(mb) * 1024 * 1024;
  s.appendUserMessage('go');
  s.ingest({ type: 'message_start', model: 'bench' });
  s.ingest({ type: 'tool_use', id: 'toolu_big', name: kind === 'image' ? 'screenshot' : 'bash', input: {} });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  const content = kind === 'image'
    ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.alloc(size * 3 / 4, 7).toString('base64') } }]
    : 'line of output\n'.repeat(Math.ceil(size / 15)).slice(0, size);
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_big', content });
  await s.flush();
  store.close();
  figures.bytes = size;
} else if (step === 'restore') {
  const store = openStore(args[0]);
  let bytes = 0;
  for (const info of store.listSessions()) bytes += JSON.stringify(store.openSession(info.id).messages()).length;
  store.close();
  figures.bytes = bytes;
} else if (step === 'export') {
  const [db, out] = args;
  const store = openStore(db);
  for (const info of store.listSessions()) await store.export(info.id, { format: 'jsonl', path: `${out}-${info.id}.jsonl` });
  store.close();
}
clearInterval(sampler);
sample();
figures.seconds = (performance.now() - started) / 1000;
figures.nodeMB = Math.round(peaks.nodeMB);
figures.goMB = Math.round(peaks.goMB);
figures.maxRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(figures));
