// resolve-ink-newest.mjs makes one process tree run Ink's newest major instead of the
// checkout's Ink 6. Loaded with `--import` through NODE_OPTIONS (so the test runner's file
// processes, the children the tests spawn and the example agent in tmux all get it), it
// resolves `ink`, `react` and `ink-testing-library` from the folder named by
// $SESSIONKEEP_TEST_INK (an install of test/matrix/ink-newest) wherever they are imported or
// required: from the tests, from dist/ink and from the example agent. Everything inside that
// folder already resolves there, so Ink and the kit share the one React beside the newer Ink.
// Nothing is stubbed: only which installed copy a name means changes.
import { registerHooks } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const folder = process.env.SESSIONKEEP_TEST_INK;
if (!folder || !fs.existsSync(path.join(folder, 'node_modules', 'ink'))) {
  throw new Error(`resolve-ink-newest.mjs: SESSIONKEEP_TEST_INK must name a folder whose node_modules holds ink (got ${JSON.stringify(folder)})`);
}
const base = pathToFileURL(`${fs.realpathSync(folder)}/`).href;
const REDIRECTED = /^(ink|ink-testing-library|react)(\/|$)/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (!REDIRECTED.test(specifier) || context.parentURL?.startsWith(base)) return nextResolve(specifier, context);
    return nextResolve(specifier, { ...context, parentURL: `${base}package.json` });
  },
});
