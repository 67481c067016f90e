// build.mjs bundles the web viewer (Preact, Chart.js, diff, marked, DOMPurify, highlight.js)
// into dist/viewer/ with esbuild: index.html, app.js and app.css, minified, so `sessionkeep
// serve` needs nothing from the network at run time; and export.js and export.css, which
// sessionkeep export --format html inlines into the page of an exported session. Type checking is separate (tsc -p ts/viewer, see the Makefile).
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'dist', 'viewer');

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: { app: join(here, 'main.tsx'), export: join(here, 'export-main.tsx') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(join(here, 'index.html'), join(out, 'index.html'));
