/**
 * The error reference page (`/docs/errors`): one entry per code of the catalogue with its cause
 * and fix. Apart from pages.ts so that only its own function bundles the guide's text (about
 * 15 KB), not every page that shares the page frame (the console's, the API reference).
 */
import { type CatalogueEntry, typeStatuses } from '../kernel/errors/catalogue.ts';
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import { escapeHtml, page } from './pages.ts';

/**
 * `/docs/errors`: every code of the catalogue (the whole one, shared/app/errors.ts, which its
 * handler passes), anchored by code (`docUrl` is `{docs_url}/errors#<code>`).
 */
export function errorsPage(errors: Readonly<Record<string, CatalogueEntry & CapabilityErrorGuide>>): string {
  const rows = Object.entries(errors)
    .map(([code, e]) => {
      const added = e.addedByService ? '<br>(added by this service)' : '';
      return `<tr id="${code}"><td><code>${code}</code>${added}</td><td>${[e.status, ...(e.alternateStatuses ?? [])].join(', ')}</td><td><code>${e.type}</code></td><td>${escapeHtml(typeStatuses[e.type].retry)}</td><td>${escapeHtml(e.cause)}</td><td>${escapeHtml(e.fix)}</td><td>${e.registryCodes.join(', ')}</td></tr>`;
    })
    .join('\n');
  return page(
    'Errors',
    `<p>Every failure is <code>{"error": {type, code, message, param, registryCode, requestId, details?, docUrl}}</code>. Branch on <code>code</code>; <code>message</code> is for developers and its wording may change. The API reference lists, per operation and status, the codes it can answer with.</p>
<p>Retry only what the <em>retry</em> column allows (spec 7.2), after <code>Retry-After</code> (every retryable answer carries it), with the same <code>Idempotency-Key</code> for a purchase; retry a purchase whose answer never came (a dropped connection) with its key too. Codes marked “added by this service” are not in the specification.</p>
<table><tr><th>code</th><th>HTTP</th><th>type</th><th>retry</th><th>cause</th><th>fix</th><th>registry codes</th></tr>${rows}</table>`,
  );
}
