import { errorCatalogue } from '../shared/errors/catalogue.ts';
import { codeTables } from '../shared/reference/code-tables.ts';

/** Small HTML pages behind the local stack's `docUrl` and `docsUrl` links, built from the same data the API serves. */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
code{background:#f4f4f4;padding:0 .2rem}:target{background:#fff3c4}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

export function errorsPage(): string {
  const rows = Object.entries(errorCatalogue)
    .map(
      ([code, e]) =>
        `<tr id="${code}"><td><code>${code}</code></td><td>${[e.status, ...(e.alternateStatuses ?? [])].join(', ')}</td><td><code>${e.type}</code></td><td>${escapeHtml(e.message)}</td><td>${e.registryCodes.join(', ')}</td></tr>`,
    )
    .join('\n');
  return page(
    'Errors',
    `<p>Every failure is <code>{"error": {type, code, message, param, registryCode, requestId, details?, docUrl}}</code>. Branch on <code>code</code>.</p>
<table><tr><th>code</th><th>HTTP</th><th>type</th><th>meaning</th><th>registry codes</th></tr>${rows}</table>`,
  );
}

export function codeTablesPage(): string {
  const sections = codeTables
    .map(
      (table) =>
        `<h2 id="${table.table}">${escapeHtml(table.title)} <small><code>${table.table}</code></small></h2><table><tr><th>code</th><th>label</th><th>registryCode</th></tr>${table.entries
          .map(
            (e) =>
              `<tr><td><code>${escapeHtml(e.code)}</code></td><td>${escapeHtml(e.label)}</td><td>${e.registryCode ?? ''}</td></tr>`,
          )
          .join('')}</table>`,
    )
    .join('\n');
  return page('Code tables', sections);
}
