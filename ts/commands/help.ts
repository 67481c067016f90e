import { noArgs, specOf, type SessionCommand } from './command';

/** help is /help: every command with its arguments and what it does. */
export const help: SessionCommand = {
  name: '/help',
  args: '',
  summary: 'list the session commands',
  needsSession: false,
  async run(args, ctx) {
    noArgs('/help', args);
    const usage = (c: SessionCommand) => (c.args ? `${c.name} ${c.args}` : c.name);
    const width = Math.max(...ctx.commands.map((c) => usage(c).length));
    const lines = ['Session commands:', ...ctx.commands.map((c) => `  ${usage(c).padEnd(width)}  ${ctx.style.dim(c.summary)}`)];
    lines.push(ctx.style.dim('Anything else is sent to the model.'));
    return { text: lines.join('\n'), data: ctx.commands.map(specOf) };
  },
};
