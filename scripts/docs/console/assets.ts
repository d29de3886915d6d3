// The console's parts of the draft's page: its script (console/page.ts with the client package's
// MSW handlers, bundled by esbuild), what it knows of the operations (console/data.ts), and MSW's
// service worker, a file next to the page.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { OpenApiDocument } from '../../../contract/document.ts';
import { yamlAsJson } from '../../client/build.ts';
import { SERVICE_WORKER } from '../status.ts';
import { consoleData } from './data.ts';

export interface ConsoleAssets {
  /** The elements that go at the end of the page's body. */
  html: string;
  /** The content of {@link SERVICE_WORKER}. */
  worker: Buffer;
}

export async function consoleAssets(draft: OpenApiDocument): Promise<ConsoleAssets> {
  const built = await esbuild.build({
    entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), 'page.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [yamlAsJson],
  });
  // The bundled modules parse addresses against placeholder origins (`new URL("http://localhost")`);
  // the docs' check that a page loads nothing from another host (self-contained.ts) reads
  // `url(` followed by an address as a stylesheet's, so the calls get a space before their parenthesis.
  const script = (built.outputFiles[0]?.text ?? '').replace(/\bURL\((?=\s*["'`](?:https?:)?\/\/)/g, 'URL (');
  // MSW's worker of the installed version: the page's MSW checks that they match.
  const worker = await readFile(
    path.join(path.dirname(createRequire(import.meta.url).resolve('msw/package.json')), 'lib', SERVICE_WORKER),
  );
  const html =
    `<script type="application/json" id="docs-console-data">${inScript(JSON.stringify(consoleData(draft)))}</script>` +
    `<script type="module">${inScript(script)}</script>`;
  return { html, worker };
}

/** The page with the console's styles in its head and its elements at the end of its body. */
export function withConsole(html: string, assets: ConsoleAssets): string {
  // Replacement functions: the script's text would read `$&` and the like as patterns.
  return html
    .replace('</head>', () => `${CONSOLE_STYLE}</head>`)
    .replace(/<\/body>(?![\s\S]*<\/body>)/, () => `${assets.html}</body>`);
}

/** Text inside a script element, which ends at the first `</script`. */
function inScript(text: string): string {
  return text.replaceAll('</', '<\\/');
}

const CONSOLE_STYLE = `<style id="docs-console-style">
.docs-console{margin:16px 32px;padding:12px 16px;border:1px solid #ccc;border-radius:8px;background:#fff;
font:14px sans-serif;display:flex;flex-direction:column;gap:8px;max-width:402px;box-sizing:border-box}
.docs-console h3{margin:0;font-size:16px}
.docs-console-field{display:flex;flex-direction:column;gap:2px}
.docs-console input,.docs-console select,.docs-console textarea{font:inherit;padding:4px}
.docs-console textarea{font-family:monospace}
.docs-console button{font:inherit;padding:6px;cursor:pointer;background:#2f5fd0;color:#fff;border:0;border-radius:4px}
.docs-console [hidden]{display:none}
.docs-console-answer pre{white-space:pre-wrap;word-break:break-all;max-height:240px;overflow:auto;margin:0}
.docs-console-headers{display:grid;grid-template-columns:auto 1fr;gap:0 8px;margin:0;font-size:12px}
.docs-console-headers dd{margin:0;word-break:break-all}
</style>`;
