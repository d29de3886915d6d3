// The docs page must work with no network at all. `redocly build-docs --inlineBundle` inlines
// Redoc's script and styles, but Redoc 3 still points at its CDN for the attribution logo and for
// icon packs, and carries a telemetry collector (off through the `disableTelemetry` option).

const WORDMARK_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' width='56' height='16' viewBox='0 0 56 16'>" +
  "<text x='0' y='12' font-family='sans-serif' font-size='12' fill='%23888'>Redocly</text></svg>";
const MARK_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 16 16'>" +
  "<text x='2' y='12' font-family='sans-serif' font-size='12' fill='%23888'>R</text></svg>";

/** Remote addresses in Redoc's bundle, each with what replaces it inside the page. */
const REPLACEMENTS: ReadonlyArray<{ remote: string; local: string }> = [
  { remote: 'https://cdn.redoc.ly/redoc/logo-mini-full.svg', local: svgDataUri(WORDMARK_SVG) },
  { remote: 'https://cdn.redoc.ly/redoc/logo-mini.svg', local: svgDataUri(MARK_SVG) },
  // Icon packs load from `${base}/${name}.svg`; with an empty base an icon is a (missing) local file.
  { remote: 'https://cdn.redocly.com/icons/fa/7.0.0', local: '' },
  { remote: 'https://cdn.redocly.com/icons/code/5.24.0', local: '' },
];

/** Hosts that only ever serve page resources (scripts, styles, fonts, images). */
const RESOURCE_HOSTS = [
  'cdn.redoc.ly',
  'cdn.redocly.com',
  'fonts.googleapis.com',
  'fonts.gstatic.com',
  'unpkg.com',
  'cdn.jsdelivr.net',
  'cdnjs.cloudflare.com',
];

const REMOTE = String.raw`(?:https?:)?//[^\s"'\x60()<>]+`;
const RESOURCE_PATTERNS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  {
    kind: 'element source',
    pattern: new RegExp(
      String.raw`<(?:script|link|img|iframe|source|audio|video|embed|object|track|image|use)\b[^>]*?\s(?:src|href|srcset|data|poster|xlink:href)\s*=\s*["']?(${REMOTE})`,
      'gi',
    ),
  },
  { kind: 'CSS url()', pattern: new RegExp(String.raw`url\(\s*["']?(${REMOTE})`, 'gi') },
  { kind: 'CSS @import', pattern: new RegExp(String.raw`@import\s+(?:url\()?\s*["']?(${REMOTE})`, 'gi') },
  {
    kind: 'resource file',
    pattern: new RegExp(
      String.raw`(${REMOTE}\.(?:js|mjs|css|svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf|eot))(?=[?#"'\x60\s)]|$)`,
      'gi',
    ),
  },
  {
    kind: 'resource host',
    pattern: new RegExp(
      String.raw`((?:https?:)?//(?:${RESOURCE_HOSTS.map(escapeRegExp).join('|')})\b[^\s"'\x60()<>]*)`,
      'gi',
    ),
  },
];

export function makeSelfContained(html: string): string {
  return REPLACEMENTS.reduce((page, { remote, local }) => page.split(remote).join(local), html);
}

/** Every place where the page would fetch something from another origin, as `kind: url`. */
export function findRemoteResources(html: string): string[] {
  const found = new Set<string>();
  for (const { kind, pattern } of RESOURCE_PATTERNS) {
    for (const match of html.matchAll(pattern)) found.add(`${kind}: ${match[1]}`);
  }
  if (!/__redoc_options\s*=\s*\{[^;]*"disableTelemetry"\s*:\s*true/.test(html)) {
    found.add('telemetry: Redoc options lack "disableTelemetry": true');
  }
  return [...found].sort();
}

function svgDataUri(svg: string): string {
  return `data:image/svg+xml,${svg.replaceAll('<', '%3C').replaceAll('>', '%3E').replaceAll(' ', '%20')}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
