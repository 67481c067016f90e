// import-child.mjs imports one file into a store, in a process of its own, and prints a
// line of JSON for each progress report ({bytesDone, bytesTotal}) then one with the result
// and the process's peak RSS (maxRssMB). node import-child.mjs <file> <store> <format>
import { openStore } from './common.mjs';

const [file, db, format] = process.argv.slice(2);
const store = openStore(db);
const result = await store.import(file, {
  format,
  onProgress: (p) => process.stdout.write(`${JSON.stringify({ bytesDone: p.bytesDone, bytesTotal: p.bytesTotal })}\n`),
});
const counts = store.listSessions({ fields: ['id', 'messageCount'] });
store.close();
process.stdout.write(`${JSON.stringify({ result, counts, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
