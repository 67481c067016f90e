// resolve-agents-newest.mjs makes one process tree run the newest @openai/agents (which needs
// Node 22) instead of the checkout's 0.14.3. Loaded with `--import` through NODE_OPTIONS (so
// the test runner's file processes and the children the tests spawn all get it), it resolves
// `@openai/agents`, its `@openai/agents-*` packages and `zod` from the folder named by
// $SESSIONKEEP_TEST_AGENTS (an install of test/matrix/agents-newest), wherever they are
// imported or required, so the tests' tool schemas and the SDK share the one zod. Nothing is
// stubbed: only which installed copy a name means changes.
import { registerHooks } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const folder = process.env.SESSIONKEEP_TEST_AGENTS;
if (!folder || !fs.existsSync(path.join(folder, 'node_modules', '@openai', 'agents'))) {
  throw new Error(`resolve-agents-newest.mjs: SESSIONKEEP_TEST_AGENTS must name a folder whose node_modules holds @openai/agents (got ${JSON.stringify(folder)})`);
}
const base = pathToFileURL(`${fs.realpathSync(folder)}/`).href;
const REDIRECTED = /^(@openai\/agents(-[a-z]+)?|zod)(\/|$)/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (!REDIRECTED.test(specifier) || context.parentURL?.startsWith(base)) return nextResolve(specifier, context);
    return nextResolve(specifier, { ...context, parentURL: `${base}package.json` });
  },
});
