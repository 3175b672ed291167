import type { Plugin, Rollup } from 'vite';
import { SIGNED_OUT_PATHS } from './src/app/signedOutPaths.ts';

/** Where index.html wants the script: after the session check, before any stylesheet. */
const MARKER = /<!-- shell-preload:[^>]*-->/;

/**
 * Writes into index.html a small script that starts downloading the signed-in shell's chunks (the
 * layout, the dashboard and what they import, with their stylesheets) while the page's main chunk
 * downloads, on every path but the signed-out pages. Without it they were asked for only once the
 * main chunk had run (`preloadForStartPath`): on Lighthouse's slow 4G one more round trip and
 * download between the session and the dashboard's first paint. The router still asks for them;
 * the browser then answers from these downloads. The server allows the script by its hash.
 */
export function shellPreload(pageModules: readonly string[]): Plugin {
  return {
    name: 'classwave-shell-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        const loadedByEntry = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const files = new Set<string>();
        const visit = (chunk: Rollup.OutputChunk) => {
          if (loadedByEntry.has(chunk.fileName) || files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
          for (const name of chunk.imports) {
            const imported = bundle[name];
            if (imported?.type === 'chunk') visit(imported);
          }
        };
        for (const module of pageModules) {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`shellPreload: no chunk for ${module}`);
          visit(chunk);
        }
        const signedOut = new RegExp(
          `^(${SIGNED_OUT_PATHS.map((p) => p.replace(/[/-]/g, '\\$&')).join('|')})(/|$)`,
        );
        // ES5 and no dependencies: it runs before any of the app's code. `crossOrigin` matches the
        // module scripts' and Vite's own stylesheet links, so their requests reuse these downloads.
        const script =
          `(function(f){if(${signedOut}.test(location.pathname))return;f.forEach(function(h){` +
          `var l=document.createElement('link');if(/\\.css$/.test(h)){l.rel='preload';l.as='style'}` +
          `else l.rel='modulepreload';l.crossOrigin='';l.href='/'+h;document.head.appendChild(l)})})` +
          `(${JSON.stringify([...files])})`;
        // At the marker, before the stylesheet links: an inline script waits for the stylesheets above it.
        if (!MARKER.test(html))
          throw new Error('shellPreload: index.html has no <!-- shell-preload: … --> marker');
        return html.replace(MARKER, `<script>${script}</script>`);
      },
    },
  };
}
