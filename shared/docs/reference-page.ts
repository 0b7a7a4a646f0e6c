/**
 * `/docs`: the whole contract as HTML rendered on the server from the served OpenAPI document
 * (once per process), so that a reader sees the first operation at once with no script run; Scalar
 * (the interactive reference, "try it") loads only when the reader asks for it
 * (docs/decisions/0099-reference-page-server-rendered.md).
 */
import { escapeHtml, REFERENCE_SCRIPT } from './pages.ts';

type Schema = { [key: string]: unknown };
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Schema[];
  requestBody?: Schema;
  responses?: Record<string, Schema>;
  'x-codeSamples'?: { label?: string; lang?: string; source: string }[];
}
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema>; responses?: Record<string, Schema> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The Markdown the document's descriptions use: paragraphs, `- ` lists and inline code. */
export function markdown(text: string): string {
  const inline = (line: string) => escapeHtml(line).replace(/`([^`]+)`/g, '<code>$1</code>');
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith('- ')))
        return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${lines.map(inline).join('<br>')}</p>`;
    })
    .join('');
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const schemaLink = (name: string) => `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
const code = (value: unknown) => `<code>${escapeHtml(JSON.stringify(value))}</code>`;

/** What a schema's value is, in a few words, with named schemas linked. */
export function typeOf(schema: Schema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema.$ref === 'string') return schemaLink(refName(schema.$ref));
  if (schema.const !== undefined) return code(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(', ')}`;
  for (const [key, joiner] of [
    ['oneOf', ' or '],
    ['anyOf', ' or '],
    ['allOf', ' and '],
  ] as const)
    if (Array.isArray(schema[key])) return (schema[key] as Schema[]).map(typeOf).join(joiner);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return types
    .map((type) => {
      if (type === 'array') return `array of ${typeOf(schema.items as Schema | undefined)}`;
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type ?? 'any';
    })
    .join(' or ');
}

/** The schema's bounds and rules that `typeOf` does not say. */
function rules(schema: Schema): string {
  const said: string[] = [];
  const range = (low: unknown, high: unknown, unit: string) => {
    if (low !== undefined && high !== undefined) said.push(`${low}–${high}${unit}`);
    else if (low !== undefined) said.push(`at least ${low}${low === 1 ? unit.replace(/s$/, '') : unit}`);
    else if (high !== undefined) said.push(`at most ${high}${unit}`);
  };
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minItems, schema.maxItems, ' items');
  range(schema.minimum, schema.maximum, '');
  if (schema.uniqueItems) said.push('no duplicates');
  if (typeof schema.pattern === 'string') said.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.default !== undefined) said.push(`default ${code(schema.default)}`);
  return said.join('; ');
}

function describe(schema: Schema): string {
  const said = rules(schema);
  const notes = [
    said && `${said}.`,
    typeof schema.description === 'string' ? markdown(schema.description) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return notes;
}

/** The rows of an object's properties; inline objects' own properties follow as `parent.child`. */
function propertyRows(schema: Schema, prefix = ''): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties)
    .map(([name, property]) => {
      const row = `<tr><td><code>${escapeHtml(prefix + name)}</code></td><td>${typeOf(property)}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${describe(property)}</td></tr>`;
      const inline = property.type === 'object' && property.properties ? property : undefined;
      return row + (inline ? propertyRows(inline, `${prefix}${name}.`) : '');
    })
    .join('');
}

const PROPERTIES_HEAD =
  '<tr><th scope="col">field</th><th scope="col">type</th><th scope="col">required</th><th scope="col">description</th></tr>';

function schemaSection(name: string, schema: Schema): string {
  const parts = [schema, ...((schema.allOf ?? []) as Schema[])].filter((part) => part.properties);
  const rows = parts.map((part) => propertyRows(part)).join('');
  return `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3><p>${typeOf(schema)}${schema.additionalProperties === false || schema.unevaluatedProperties === false ? ' (no other fields)' : ''}</p>${describe(schema)}${rows ? `<table>${PROPERTIES_HEAD}${rows}</table>` : ''}</section>`;
}

const example = (value: unknown, label: string) =>
  value === undefined
    ? ''
    : `<details><summary>${label}</summary><pre tabindex="0"><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre></details>`;

function operationSection(
  path: string,
  method: string,
  operation: Operation,
  document: OpenApiDocument,
  first: boolean,
): string {
  const parameters = (operation.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${typeOf(p.schema as Schema)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${describe({ ...(p.schema as Schema), ...(p.description ? { description: p.description } : {}) })}${p.example === undefined ? '' : ` Example: ${code(p.example)}.`}</td></tr>`,
    )
    .join('');
  const body = operation.requestBody;
  const bodyContent = (body?.content ?? {}) as Record<string, Schema>;
  const requestBody = Object.entries(bodyContent)
    .map(
      ([mediaType, content]) =>
        `<p>Body (<code>${escapeHtml(mediaType)}</code>, ${body?.required ? 'required' : 'optional'}): ${typeOf(content.schema as Schema)}</p>${example(content.example, 'Example body')}`,
    )
    .join('');
  const responses = Object.entries(operation.responses ?? {})
    .map(([status, given]) => {
      const response =
        typeof given.$ref === 'string'
          ? ((document.components?.responses?.[refName(given.$ref)] ?? {}) as Schema)
          : given;
      const content = Object.values((response.content ?? {}) as Record<string, Schema>)[0];
      const schema = content?.schema as Schema | undefined;
      const named = schema?.allOf ? (schema.allOf as Schema[]).find((part) => part.$ref) : schema;
      return `<tr><td>${escapeHtml(status)}</td><td>${named ? typeOf(named) : ''}</td><td>${markdown(String(response.description ?? ''))}${example(content?.example, 'Example')}</td></tr>`;
    })
    .join('');
  const samples = (operation['x-codeSamples'] ?? [])
    .map(
      (sample) =>
        `<p>${escapeHtml(sample.label ?? sample.lang ?? 'Example')}:</p><pre tabindex="0"><code>${escapeHtml(sample.source)}</code></pre>`,
    )
    .join('');
  return `<section id="${escapeHtml(operation.operationId)}" class="operation"><h3${first ? ' elementtiming="first-operation"' : ''}>${escapeHtml(operation.summary ?? operation.operationId)}</h3>
<p class="endpoint"><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <span class="id">${escapeHtml(operation.operationId)}</span></p>
${operation.description ? markdown(operation.description) : ''}
${parameters ? `<table><caption>Parameters</caption><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">type</th><th scope="col">required</th><th scope="col">description</th></tr>${parameters}</table>` : ''}
${requestBody}${samples}
<table><caption>Responses</caption><tr><th scope="col">status</th><th scope="col">body</th><th scope="col">description</th></tr>${responses}</table></section>`;
}

/** The operations of the document in its own order, grouped by their first tag. */
export function operationsByTag(document: OpenApiDocument) {
  const groups = new Map<string, { path: string; method: string; operation: Operation }[]>(
    (document.tags ?? []).map((tag) => [tag.name, []]),
  );
  for (const [path, methods] of Object.entries(document.paths))
    for (const method of METHODS) {
      const operation = methods[method] as Operation | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)?.push({ path, method, operation });
    }
  return [...groups].filter(([, operations]) => operations.length > 0);
}

const STYLE = `body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1b1b1b}
#reference{display:grid;grid-template-columns:17rem minmax(0,1fr)}
nav{position:sticky;top:0;height:100vh;overflow-y:auto;border-right:1px solid #ddd;padding:1rem;box-sizing:border-box;font-size:14px}
nav ul{list-style:none;margin:0;padding:0}nav a{display:block;padding:.15rem 0;min-height:24px;box-sizing:border-box}nav li li a{padding-left:.6rem}
nav a{color:#1b1b1b;text-decoration:none}nav a:hover,nav a:focus{text-decoration:underline}
nav>ul>li{margin-bottom:.6rem}nav>ul>li>a{font-weight:600}
main{padding:1rem 2rem;max-width:62rem}h1{font-size:1.6rem;margin:.3rem 0}h2{margin:1.5rem 0 .3rem;border-bottom:2px solid #ddd}
h3{margin:1.2rem 0 .3rem}p{margin:.3rem 0}
.endpoint{font-size:14px}.method{font-weight:700;color:#0b5394}.id{color:#555}
table{border-collapse:collapse;width:100%;margin:.4rem 0;font-size:14px}caption{text-align:left;font-weight:600}
td:first-child code{white-space:nowrap}td,th{border-bottom:1px solid #ddd;padding:.2rem .4rem;text-align:left;vertical-align:top}td p{margin:0}
code{background:#f4f4f4;padding:0 .2rem;overflow-wrap:anywhere}pre{background:#f4f4f4;padding:.5rem;overflow-x:auto}pre code{padding:0}
details{margin:.2rem 0}summary{cursor:pointer}:target{background:#fff3c4}
.links{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center}
@media (max-width:50rem){#reference{display:block}nav{position:static;height:auto;border:0}}`;

/** `/docs`: the page, from the served document. */
export function apiReferencePage(document: OpenApiDocument): string {
  const groups = operationsByTag(document);
  const tagDescription = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
  const anchor = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const nav = groups
    .map(
      ([tag, operations]) =>
        `<li><a href="#${anchor(tag)}">${escapeHtml(tag)}</a><ul>${operations.map(({ operation }) => `<li><a href="#${escapeHtml(operation.operationId)}">${escapeHtml(operation.summary ?? operation.operationId)}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  const sections = groups
    .map(
      ([tag, operations], group) =>
        `<section id="${anchor(tag)}"><h2>${escapeHtml(tag)}</h2>${markdown(tagDescription.get(tag) ?? '')}
${operations.map(({ path, method, operation }, index) => operationSection(path, method, operation, document, group + index === 0)).join('\n')}</section>`,
    )
    .join('\n');
  // The description's first paragraph opens the page; the rest (keys, limits, errors) closes it.
  const [lead = '', ...about] = (document.info.description ?? '').split(/\n{2,}/);
  const schemas = Object.entries(document.components?.schemas ?? {})
    .map(([name, schema]) => schemaSection(name, schema))
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Company Register Data Service API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style></head>
<body><div id="app"></div><div id="reference">
<nav aria-label="Operations"><ul>${nav}<li><a href="#schemas">Schemas</a></li><li><a href="#about">About this API</a></li></ul></nav>
<main>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
${markdown(lead)}
<p class="links"><a href="v1/openapi.json">OpenAPI 3.1 document</a> <a href="docs/errors">Error reference</a> <a href="#about">Authentication, limits and errors</a> <button type="button" id="interactive" hidden>Open the interactive reference (try requests)</button></p>
${sections}
<section id="schemas"><h2>Schemas</h2>
${schemas}</section>
<section id="about"><h2>About this API</h2>${markdown(about.join('\n\n'))}</section>
</main></div>
<script>${REFERENCE_SCRIPT}</script>
</body></html>`;
}
