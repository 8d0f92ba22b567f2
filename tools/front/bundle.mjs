// The release step's second half (tools/front-build): each entry page's module graph
// bundled by esbuild into its own folder, so the first screen is a handful of files
// instead of one a module. Run after the file-by-file minification, on its copy:
//
//   node tools/front/bundle.mjs SRC OUT     SRC the plain tree (nginx/html), OUT the copy
//
// For each page (app/, cabinet/, admin/): its main.js (and the mini-app's demo.js, which
// the page's inline script preloads by name) is bundled with everything it imports,
// dynamic imports split into chunks (OUT/<page>/c-<hash>.js, beside main.js), so a screen
// is still loaded on its first visit and every module has one instance. Each page is a
// bundle of its own: what two pages share (app/shell.js, shared/) is in both.
// Every other file stays the minified copy of the repo's (the landing's site/landing.js
// still imports shared/ file by file).
// What moves:
//   - `new URL('../x/', import.meta.url)`: a module now runs from <page>/main.js or a chunk
//     beside it, one folder deep like every source but the screens, so the relative path
//     is written again from there (plugin below);
//   - the page's <link rel="modulepreload"> lines: each named module becomes the file that
//     holds it now, with the files it imports statically, in the same order. The inline
//     script and the rest of the page are untouched (its CSP hash holds).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import * as esbuild from 'esbuild';

const [src, out] = process.argv.slice(2).map((p) => resolve(p));
if (!src || !out) {
  console.error('usage: node bundle.mjs SRC OUT');
  process.exit(2);
}
const PAGES = { app: ['main.js', 'demo.js'], cabinet: ['main.js'], admin: ['main.js'] };

// `new URL('REL', import.meta.url)` with REL relative to the source file, made relative to
// the page's folder, where the bundle runs. REL's folder part is plain text (a template's
// ${…} only ever names the file).
function rebase(page) {
  const runsIn = join(src, page);
  return {
    name: 'rebase-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const contents = text.replace(/new URL\((['"`])(\.\.?\/[^'"`$]*\/)?([^'"`]*)\1,\s*import\.meta\.url\)/g, (all, q, folder, file) => {
          const target = resolve(dirname(args.path), folder || './');
          let rel = relative(runsIn, target).split('\\').join('/');
          rel = rel === '' ? './' : (rel.startsWith('.') ? rel : './' + rel) + '/';
          return `new URL(${q}${rel}${file}${q}, import.meta.url)`;
        });
        return { contents, loader: 'js' };
      });
    },
  };
}

const asUrl = (p) => `/static/__RELEASE__/${p}`;

for (const [page, entries] of Object.entries(PAGES)) {
  const result = await esbuild.build({
    absWorkingDir: src,
    entryPoints: entries.map((e) => `${page}/${e}`),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    charset: 'utf8',
    legalComments: 'inline',
    outdir: join(out, page),
    entryNames: '[name]',
    chunkNames: 'c-[hash]',
    metafile: true,
    allowOverwrite: true,
    logLevel: 'warning',
    plugins: [rebase(page)],
  });
  // Paths relative to the tree: which output holds each source module, what each output
  // imports statically.
  const holder = new Map();
  const imports = new Map();
  for (const [file, o] of Object.entries(result.metafile.outputs)) {
    const name = relative(out, resolve(src, file)).split('\\').join('/');
    for (const input of Object.keys(o.inputs)) holder.set(input, name);
    imports.set(name, o.imports.filter((i) => i.kind === 'import-statement')
      .map((i) => relative(out, resolve(src, i.path)).split('\\').join('/')));
  }
  const html = join(out, page, 'index.html');
  const lines = readFileSync(html, 'utf8').split('\n');
  const hint = /^<link rel="modulepreload" href="\/static\/__RELEASE__\/([^"]+)">$/;
  const first = lines.findIndex((l) => hint.test(l));
  if (first < 0) continue;
  const wanted = [];
  const add = (file) => {
    if (wanted.includes(file)) return;
    wanted.push(file);
    for (const i of imports.get(file) || []) add(i);
  };
  for (const l of lines) {
    const m = hint.exec(l);
    if (!m) continue;
    const file = holder.get(m[1]);
    if (!file) throw new Error(`${page}/index.html preloads ${m[1]}, which ${page}/main.js does not import`);
    add(file);
  }
  const kept = lines.filter((l) => !hint.test(l));
  kept.splice(first, 0, ...wanted.map((f) => `<link rel="modulepreload" href="${asUrl(f)}">`));
  writeFileSync(html, kept.join('\n'));
}
