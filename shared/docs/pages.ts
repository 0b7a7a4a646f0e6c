/**
 * The HTML documentation pages the service serves without a key, deployed and locally: the API
 * reference (`/docs`, Scalar rendering `/v1/openapi.json`) and the error reference
 * (`/docs/errors`, one entry per code of the catalogue with its cause and fix).
 */
import { createHash } from 'node:crypto';
import { type CatalogueEntry, typeStatuses } from '../kernel/errors/catalogue.ts';
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';

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
 * `/docs/errors`: every code of the catalogue (the whole one, shared/app/errors.ts, which its
 * handler passes), anchored by code (`docUrl` is `{docs_url}/errors#<code>`).
 */
export function errorsPage(errors: Readonly<Record<string, CatalogueEntry & CapabilityErrorGuide>>): string {
  const rows = Object.entries(errors)
    .map(([code, e]) => {
      const guide = e;
      const added = e.addedByService ? '<br>(added by this service)' : '';
      return `<tr id="${code}"><td><code>${code}</code>${added}</td><td>${[e.status, ...(e.alternateStatuses ?? [])].join(', ')}</td><td><code>${e.type}</code></td><td>${escapeHtml(typeStatuses[e.type].retry)}</td><td>${escapeHtml(guide.cause)}</td><td>${escapeHtml(guide.fix)}</td><td>${e.registryCodes.join(', ')}</td></tr>`;
    })
    .join('\n');
  return page(
    'Errors',
    `<p>Every failure is <code>{"error": {type, code, message, param, registryCode, requestId, details?, docUrl}}</code>. Branch on <code>code</code>; <code>message</code> is for developers and its wording may change. The API reference lists, per operation and status, the codes it can answer with.</p>
<p>Retry only what the <em>retry</em> column allows (spec 7.2), after <code>Retry-After</code> (every retryable answer carries it), with the same <code>Idempotency-Key</code> for a purchase; retry a purchase whose answer never came (a dropped connection) with its key too. Codes marked “added by this service” are not in the specification.</p>
<table><tr><th>code</th><th>HTTP</th><th>type</th><th>retry</th><th>cause</th><th>fix</th><th>registry codes</th></tr>${rows}</table>`,
  );
}

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
