#!/usr/bin/env node
// sessionkeep: the command line over a store. One file per command; each is listed below.
import fs from 'node:fs';
import { openStore } from '../store';
import { SessionError } from '../errors';
import { native } from '../native';
import { UsageError, flag, parse, stringOption } from './args';
import type { Command } from './command';
import type { Context } from './context';
import { style, useColor, width } from './term';
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
import { verify } from './verify';

/**
 * The commands, in the order `sessionkeep help` lists them. A new command is a file in this
 * folder and a line here.
 */
const COMMANDS: Command[] = [ls, show, info, search, exportCommand, importCommand, rename, archive, unarchive, deleteCommand, stats, debugContext, serve, migrate, verify];

function usage(): string {
  const lines = ['usage: sessionkeep <command> [options]', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  ${c.name.padEnd(14)} ${c.summary}`);
  lines.push(
    '',
    'every command takes:',
    '  --db <path>  the store: a file, or a postgres:// URL (default: $SESSIONKEEP_DB, else ~/.sessionkeep/sessions.db)',
    '  --json       JSON for scripts instead of text for people',
    '',
    'a session is named by its id or the first characters of it; `sessionkeep <command> --help` for more',
  );
  return lines.join('\n') + '\n';
}

/** isServerURL reports whether a store is named by a database server's URL, not a file. */
function isServerURL(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** main runs one command line and returns the exit status: 0, 1 on an error, 2 on bad usage. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`sessionkeep: no command ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  try {
    const args = parse(rest, command.options);
    if (flag(args, 'help')) {
      const dbOption = command.storeOption ? '' : ' [--db <path>]';
      process.stdout.write(`usage: sessionkeep ${command.usage}${dbOption}\n\n${command.summary}\n`);
      return 0;
    }
    const storeOption = command.storeOption ?? 'db';
    const db = stringOption(args, storeOption) ?? native.defaultStorePath();
    if (!command.createsStore && !isServerURL(db) && !fs.existsSync(db)) {
      process.stderr.write(`sessionkeep: no store at ${db}; give one with --${storeOption} <path>\n`);
      return 1;
    }
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
      process.stderr.write(`sessionkeep ${name}: ${err.message} (${err.code})\n`);
      return 1;
    }
    throw err;
  }
}

if (require.main === module) {
  // A closed pipe (`sessionkeep ls | head`) ends the output, not in an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
