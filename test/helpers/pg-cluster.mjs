// pg-cluster runs a throwaway PostgreSQL server for the tests: initdb into a folder, pg_ctl
// start on a free 127.0.0.1 port with trust auth, and stop. Everything is synchronous so a
// caller may use it from a test's before() or from make.
//
//   as a module: startCluster(dir) -> { url, dir, stop() }   (stopCluster(dir) too)
//   as a CLI:    node test/helpers/pg-cluster.mjs start <dir>   prints the URL, leaves it running
//                node test/helpers/pg-cluster.mjs stop <dir>
//
// The server is for tests only: fsync and full_page_writes are off (a crash of the machine
// may lose its data, which a throwaway cluster does not care about), and it listens on
// 127.0.0.1 alone with trust auth for the user `sessionkeep`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USER = 'sessionkeep';
const DATABASE = 'sessionkeep';
/** MAX_CONNECTIONS leaves room for the whole suite's pools at once (each store holds a few). */
const MAX_CONNECTIONS = 300;
/** UNPRIVILEGED is who runs the server when we are root: initdb refuses to run as root. */
const UNPRIVILEGED = 'nobody';

/**
 * postgresBinDir finds the folder of initdb and pg_ctl: `pg_config --bindir`, else the newest
 * /usr/lib/postgresql/<major>/bin (Debian's layout). PATH is not used: Debian puts no server
 * binaries on it, and a machine whose PATH has them has them from somewhere else.
 */
export function postgresBinDir() {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  } catch { /* no pg_config: fall back to Debian's layout */ }
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const dir = path.join(root, major, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error('pg-cluster: no PostgreSQL server binaries (install Debian\'s postgresql package)');
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** run runs a server binary, as the unprivileged user when we are root, and returns stdout. */
function run(bin, args, { allowFail = false } = {}) {
  const tool = path.join(postgresBinDir(), bin);
  const [file, argv] = isRoot() ? ['runuser', ['-u', UNPRIVILEGED, '--', tool, ...args]] : [tool, args];
  try {
    return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: '/' });
  } catch (err) {
    if (allowFail) return null;
    throw new Error(`pg-cluster: ${bin} ${args.join(' ')} failed: ${err.stderr || err.message}`);
  }
}

/** chownTree gives dir and everything in it to the unprivileged user (root only). */
function chownTree(dir) {
  if (!isRoot()) return;
  execFileSync('chown', ['-R', `${UNPRIVILEGED}:`, dir]);
}

const dataDir = (dir) => path.join(dir, 'data');
const urlFile = (dir) => path.join(dir, 'url');
const logFile = (dir) => path.join(dir, 'server.log');

/** randomPort picks a port from the unprivileged range below Linux's ephemeral range. */
const randomPort = () => 20000 + Math.floor(Math.random() * 12000);

/** initCluster creates the data folder with trust auth on 127.0.0.1 and the test settings. */
function initCluster(dir) {
  fs.mkdirSync(dataDir(dir), { recursive: true });
  chownTree(dir);
  run('initdb', ['-D', dataDir(dir), '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
  fs.writeFileSync(path.join(dataDir(dir), 'pg_hba.conf'), [
    '# pg-cluster: trust, TCP on 127.0.0.1 only',
    `host all all 127.0.0.1/32 trust`,
    '',
  ].join('\n'));
  chownTree(dir);
}

/** writePort sets the port (and the fixed test settings) in postgresql.auto.conf. */
function writeSettings(dir, port) {
  fs.writeFileSync(path.join(dataDir(dir), 'postgresql.auto.conf'), [
    `listen_addresses = '127.0.0.1'`,
    `port = ${port}`,
    `unix_socket_directories = ''`,
    `max_connections = ${MAX_CONNECTIONS}`,
    `fsync = off`,
    `full_page_writes = off`,
    `synchronous_commit = on`,
    '',
  ].join('\n'));
  chownTree(dir);
}

/** startServer runs pg_ctl start and waits until the server accepts connections. */
function startServer(dir) {
  return run('pg_ctl', ['-D', dataDir(dir), '-l', logFile(dir), '-w', '-t', '60', 'start'], { allowFail: true }) !== null;
}

const urlFor = (port) => `postgres://${USER}@127.0.0.1:${port}/${DATABASE}`;

/**
 * startCluster starts a server in dir (creating the cluster the first time; a stopped
 * cluster in dir restarts on its old port with its data) and returns its URL and a stop.
 */
export function startCluster(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const fresh = !fs.existsSync(path.join(dataDir(dir), 'PG_VERSION'));
  if (fresh) initCluster(dir);
  if (!fresh) {
    // A restart keeps the port, so URLs handed out before still reach it.
    const port = Number(new URL(fs.readFileSync(urlFile(dir), 'utf8').trim()).port);
    if (!startServer(dir)) throw new Error(`pg-cluster: restart on port ${port} failed:\n${tail(dir)}`);
    return handle(dir, urlFor(port));
  }
  // A random port can be taken between our choice and the bind: try a few.
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = randomPort();
    writeSettings(dir, port);
    if (startServer(dir)) {
      run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', USER, DATABASE]);
      const url = urlFor(port);
      fs.writeFileSync(urlFile(dir), `${url}\n`);
      return handle(dir, url);
    }
  }
  throw new Error(`pg-cluster: the server did not start:\n${tail(dir)}`);
}

/** stopCluster stops the server in dir (fast shutdown: clients are disconnected); idempotent. */
export function stopCluster(dir) {
  if (!fs.existsSync(path.join(dataDir(dir), 'postmaster.pid'))) return;
  run('pg_ctl', ['-D', dataDir(dir), '-m', 'fast', '-w', '-t', '60', 'stop'], { allowFail: true });
}

const handle = (dir, url) => ({ url, dir, stop: () => stopCluster(dir) });

/** tail is the end of the server's log, for an error message. */
function tail(dir) {
  try { return fs.readFileSync(logFile(dir), 'utf8').split('\n').slice(-15).join('\n'); } catch { return '(no server log)'; }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, dir] = process.argv.slice(2);
  if (!dir || !['start', 'stop'].includes(command)) {
    process.stderr.write('usage: node test/helpers/pg-cluster.mjs start|stop <dir>\n');
    process.exit(2);
  }
  const absolute = path.resolve(dir);
  if (command === 'start') process.stdout.write(`${startCluster(absolute).url}\n`);
  else stopCluster(absolute);
}
