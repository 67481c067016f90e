// load-pages-child.cjs loads the package (and so the addon), opens a store in the folder
// given, writes and reads a message, and prints, as JSON, how much of the addon's first
// segment (the ELF header, symbol tables and relocation table, which only the loader reads)
// is resident and how large it is, from /proc/self/smaps.
const fs = require('node:fs');
const path = require('node:path');
const sk = require(path.join(__dirname, '..', '..', 'dist', 'index.js'));

const store = sk.openStore(path.join(process.argv[2], 'pages.db'));
const session = store.createSession();
session.appendUserMessage('hello');
const read = JSON.stringify(session.messages());
store.close();

let header = null;
let first = null;
for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
  const mapping = /^[0-9a-f]+-[0-9a-f]+ (\S+) ([0-9a-f]+) \S+ \S+\s+(.*)$/.exec(line);
  if (mapping) {
    header = mapping[3].endsWith('sessionkeep.node') && parseInt(mapping[2], 16) === 0 ? {} : null;
    if (header) first = header;
    continue;
  }
  const field = /^(Size|Rss):\s+(\d+) kB/.exec(line);
  if (header && field) header[field[1].toLowerCase()] = Number(field[2]);
}
console.log(JSON.stringify({ ...first, read }));
