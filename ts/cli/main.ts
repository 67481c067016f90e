#!/usr/bin/env node
// sessionkeep: the command line over a store. One file per command; each is listed below.
import fs from 'node:fs';
import path from 'node:path';
import { SessionError } from '../errors';
import { UsageError, flag, parse, splitGlobal, stringOption, takesArguments } from './args';
import type { Command, Standalone } from './command';
import type { Global, Parsed } from './args';
import type { Context } from './context';
import { useColor, width } from './term';
import { style } from '../render/style';
import { ls } from './ls';
import { show } from './show';
import { info } from './info';
import { exportCommand } from './export';
import { archive } from './archive';
import { unarchive } from './unarchive';
import { deleteCommand } from './delete';
import { rename } from './rename';
import { stats } from './stats';
import { search } from './search';
import { importCommand } from './import';
import { debugContext } from './debug-context';
import { serve } from './serve';
import { migrate } from './migrate';
import { buildAddon } from './build-addon';
import { verify } from './verify';

/**
 * The commands, in the order `sessionkeep help` lists them. A new command is a file in this
 * folder and a line here.
 */
const COMMANDS: Command[] = [ls, show, info, search, exportCommand, importCommand, rename, archive, unarchive, deleteCommand, stats, debugContext, serve, migrate, verify];

/** The commands that need no store (nor the addon), listed after the others. */
const STANDALONE: Standalone[] = [buildAddon];

function usage(): string {
  const lines = ['usage: sessionkeep [--db <path>] [--json] <command> [options]', '       sessionkeep --version', '', 'commands:'];
  for (const c of [...COMMANDS, ...STANDALONE]) lines.push(`  ${c.name.padEnd(14)} ${c.summary}`);
  lines.push(
    '',
    'every command takes, before or after its name:',
    '  --db <path>  the store: a file, or a postgres:// URL (default: $SESSIONKEEP_DB, else ~/.sessionkeep/sessions.db)',
    '  --json       JSON for scripts instead of text for people',
    '  --help       the command\'s usage',
    '',
    'a session is named by its id or the first characters of it; `sessionkeep <command> --help` for more',
  );
  return lines.join('\n') + '\n';
}

/** isServerURL reports whether a store is named by a database server's URL, not a file. */
function isServerURL(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** version is the package's version, from its package.json. */
function version(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** oneLine is an error's message as one line of the CLI's output. */
function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0];
}

/**
 * main runs one command line and returns the exit status: 0, 1 on an error, 2 on bad usage.
 * Help, usage and --version need neither the store nor the native addon: the store is
 * required only when a command runs.
 */
export async function main(argv: string[]): Promise<number> {
  let global;
  try {
    global = splitGlobal(argv);
  } catch (err) {
    process.stderr.write(`sessionkeep: ${oneLine(err)}\n\n${usage()}`);
    return 2;
  }
  const { name, rest } = global;
  if (global.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (name === 'help' || (global.help && name === undefined)) {
    process.stdout.write(usage());
    return 0;
  }
  if (name === undefined) {
    process.stderr.write(usage());
    return 2;
  }
  const standalone = STANDALONE.find((c) => c.name === name);
  if (standalone) return runStandalone(standalone, global);
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`sessionkeep: no command ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  try {
    const args = parse([...global.options, ...rest], command.options);
    if (global.help || flag(args, 'help')) {
      const dbOption = command.storeOption ? '' : ' [--db <path>]';
      process.stdout.write(`usage: sessionkeep ${command.usage}${dbOption}\n\n${command.summary}\n`);
      return 0;
    }
    if (args.positionals.length > 0 && !takesArguments(command.usage)) {
      throw new UsageError(`${name} takes no arguments, not ${JSON.stringify(args.positionals[0])}`);
    }
    const db = storePath(command, args);
    if (!command.createsStore && !isServerURL(db) && !fs.existsSync(db)) {
      process.stderr.write(`sessionkeep: no store at ${db}; give one with --${command.storeOption ?? 'db'} <path>\n`);
      return 1;
    }
    const { openStore } = require('../store') as typeof import('../store');
    const store = openStore(db);
    const ctx: Context = {
      store,
      out: (text) => process.stdout.write(text),
      style: style(useColor(process.stdout)),
      width: width(process.stdout),
      json: flag(args, 'json'),
    };
    try {
      await command.run(ctx, args);
    } finally {
      store.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`sessionkeep ${name}: ${err.message}\nusage: sessionkeep ${command.usage}\n`);
      return 2;
    }
    if (err instanceof SessionError) {
      process.stderr.write(`sessionkeep ${name}: ${oneLine(err)} (${err.code})\n`);
      return 1;
    }
    process.stderr.write(`sessionkeep ${name}: ${oneLine(err)}\n`);
    return 1;
  }
}

/** runStandalone runs a command that needs no store: its --help, or the command. */
function runStandalone(command: Standalone, global: Global): number {
  try {
    const args = parse([...global.options, ...global.rest], command.options);
    if (global.help || flag(args, 'help')) {
      process.stdout.write(`usage: sessionkeep ${command.usage}\n\n${command.summary}\n`);
      return 0;
    }
    if (args.positionals.length > 0) throw new UsageError(`${command.name} takes no arguments, not ${JSON.stringify(args.positionals[0])}`);
    return command.run(args);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`sessionkeep ${command.name}: ${err.message}\nusage: sessionkeep ${command.usage}\n`);
    return 2;
  }
}

/**
 * storePath is the store a command runs on: --db, or the command's own option (migrate's
 * --from) with --db as its other name, else the default store. A command with its own option
 * names its store explicitly: it never falls back to the default, where a silent fallback
 * would read another store than the one meant.
 */
function storePath(command: Command, args: Parsed): string {
  const db = stringOption(args, 'db');
  if (!command.storeOption) {
    return db ?? (require('../native') as typeof import('../native')).native.defaultStorePath();
  }
  const own = stringOption(args, command.storeOption);
  if (own !== undefined && db !== undefined && own !== db) {
    throw new UsageError(`--${command.storeOption} and --db name two stores; give one`);
  }
  const store = own ?? db;
  if (store === undefined || store === '') throw new UsageError(`give the store with --${command.storeOption} <path> (or --db <path>)`);
  return store;
}

if (require.main === module) {
  // A closed pipe (`sessionkeep ls | head`) ends the output, not in an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`sessionkeep: ${oneLine(err)}\n`);
      process.exitCode = 1;
    },
  );
}
