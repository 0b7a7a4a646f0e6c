/**
 * The HTML documentation pages the service serves without a key, deployed and locally: the API
 * reference (`/docs`, Scalar rendering `/v1/openapi.json`) and the error reference
 * (`/docs/errors`, errors-page.ts).
 */
import { createHash } from 'node:crypto';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/** A plain page in the style of the service's other documentation pages. */
export const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
code{background:#f4f4f4;padding:0 .2rem}:target{background:#fff3c4}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/**
 * Scalar's configuration: nothing leaves the service. No telemetry, no request proxy (the "try
 * it" client calls the API directly), no fonts from Scalar's CDN, no links to Scalar's cloud.
 */
export const SCALAR_CONFIGURATION = {
  telemetry: false,
  withDefaultFonts: false,
  // The "Ask AI" agent searches Scalar's registry through its proxy.
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
  // Groups open when read: drawing every operation up front tripled the time to first content
  // (docs/decisions/0018-reference-page-scalar-offline.md).
  defaultOpenAllTags: false,
  hideDarkModeToggle: false,
  metaData: { title: 'Company Register Data Service API reference' },
} as const;

/**
 * The page's own script: shows the button that loads Scalar's bundle (`/docs/scalar.js`) and, once
 * it has run, replaces the rendered reference with Scalar's, which fetches the served document.
 * URLs are relative to the page, so they work under a deployed stage's prefix (`/prod/docs`); the
 * server is the page's own origin and stage. Inline, allowed by its hash
 * (`DOCS_CONTENT_SECURITY_POLICY`).
 */
export const REFERENCE_SCRIPT = `
  const button = document.getElementById('interactive');
  button.hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    button.textContent = 'Loading the interactive reference…';
    const script = document.createElement('script');
    script.src = 'docs/scalar.js';
    script.onload = () => {
      const base = new URL('.', location.href).href.replace(/\\/$/, '');
      document.getElementById('reference').remove();
      Scalar.createApiReference('#app', Object.assign(${JSON.stringify(SCALAR_CONFIGURATION)}, {
        url: base + '/v1/openapi.json',
        servers: [{ url: base, description: 'This deployment' }],
      }));
    };
    document.head.append(script);
  }, { once: true });
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The documentation pages' policy: scripts from the deployment and the page's own script (by its
 * hash), requests to the deployment only (the document, and "try it" calls to this API), never
 * framed, no plugins, no `<base>`, forms nowhere. Styles: the deployment's, and inline, because
 * Scalar's bundle injects its stylesheets as `<style>` elements without a nonce when it loads
 * (docs/decisions/0058-docs-pages-headers.md).
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'self' ${sha256(REFERENCE_SCRIPT)}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What every documentation page and its script carry besides the pipeline's HSTS and nosniff. */
export const DOCS_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
