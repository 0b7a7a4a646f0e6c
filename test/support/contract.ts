/**
 * Every response the HTTP tests receive is checked against the published contract
 * (docs/openapi.json): its status must be documented for the operation, its body must match the
 * documented schema of that status and media type (ajv, JSON Schema 2020-12), and the headers the
 * document requires must be there. The test client (`call` in api.ts) and the raw `fetch` helpers
 * call `checkContract`, so an undocumented status, code or field fails the test that received it.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const DOCUMENT_ID = 'https://company-register.example.com/openapi.json';

interface ResponseObject {
  $ref?: string;
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, { schema: unknown }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: {
    responses: Record<string, ResponseObject>;
    headers: Record<string, { required?: boolean }>;
  };
}

const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as OpenApi;

// ajv-formats is CommonJS: its default export is the plugin itself or under `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
addFormats(ajv);
ajv.addKeyword('example');
// OpenAPI's `discriminator` (on the delivery and extract unions) only names what `oneOf` checks.
ajv.addKeyword('discriminator');
// The whole document under an `$id`, so that the `$ref`s of its response schemas
// (`#/components/schemas/…`) resolve. Its top-level fields are not JSON Schema: declared as
// keywords that validate nothing, so that strict mode accepts the document.
for (const field of ['openapi', 'info', 'servers', 'tags', 'security', 'paths', 'webhooks', 'components'])
  ajv.addKeyword(field);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Path templates, literal segments first (as API Gateway and the local server match them). */
const templates = Object.keys(document.paths)
  .map((template) => {
    const names = template.match(/\{[^}]+\}/g) ?? [];
    const source = template
      .split('/')
      .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { template, pattern: new RegExp(`^${source}/?$`), params: names.length };
  })
  .sort((a, b) => a.params - b.params);

const validators = new Map<string, ValidateFunction>();
function validatorFor(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

/** Paths the contract does not cover: the local stack's own control endpoints and the HTML pages. */
const OUTSIDE_THE_CONTRACT = [/^\/__local\//, /^\/__local$/, /^\/docs(\/|$)/];

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null when the body is not JSON. */
  body: unknown;
}

const describe = (method: string, path: string, status: number) => `${method} ${path} → ${status}`;

/** Throws `ContractViolation` when the response is not one the document allows for the request. */
export function checkContract(method: string, url: string, response: ReceivedResponse): void {
  const path = new URL(url, 'http://localhost').pathname;
  if (OUTSIDE_THE_CONTRACT.some((pattern) => pattern.test(path))) return;
  const what = describe(method, path, response.status);
  const matched = templates.filter((t) => t.pattern.test(path));
  const template = matched.find((t) => document.paths[t.template]?.[method.toLowerCase()]);
  if (!template) {
    // No operation: the API answers 404 route_not_found, in the envelope every error has.
    const code = (response.body as { error?: { code?: string } } | null)?.error?.code;
    if (response.status !== 404 || code !== 'route_not_found') {
      throw new ContractViolation(`${what}: no operation in docs/openapi.json, yet not 404 route_not_found`);
    }
    return;
  }
  const operation = document.paths[template.template]?.[method.toLowerCase()] as Operation;
  const operationPointer = `${DOCUMENT_ID}#/paths/${pointer(template.template, method.toLowerCase())}`;
  let responseObject = operation.responses[String(response.status)];
  let responsePointer = `${operationPointer}/responses/${response.status}`;
  if (!responseObject) {
    throw new ContractViolation(
      `${what}: status ${response.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(', ')})`,
    );
  }
  if (responseObject.$ref) {
    const name = responseObject.$ref.split('/').pop() as string;
    responseObject = document.components.responses[name] as ResponseObject;
    responsePointer = `${DOCUMENT_ID}#/components/responses/${pointer(name)}`;
  }

  for (const [name, header] of Object.entries(responseObject.headers ?? {})) {
    const required = header.$ref
      ? document.components.headers[header.$ref.split('/').pop() as string]?.required
      : header.required;
    if (required && !response.headers.has(name)) {
      throw new ContractViolation(`${what}: the required header ${name} is missing`);
    }
  }

  const content = responseObject.content;
  if (!content) {
    if (response.body !== null) throw new ContractViolation(`${what}: a body where the document has none`);
    return;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (!content[contentType]) {
    throw new ContractViolation(
      `${what}: content type '${contentType}' is not documented (documented: ${Object.keys(content).join(', ')})`,
    );
  }
  if (contentType !== 'application/json') return;
  const validate = validatorFor(`${responsePointer}/content/${pointer(contentType)}/schema`);
  if (!validate(response.body)) {
    const problems = (validate.errors ?? [])
      .slice(0, 8)
      .map(
        (e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
      )
      .join('; ');
    throw new ContractViolation(
      `${what}: the body does not match ${operation.operationId}'s documented ${response.status}: ${problems}\n${JSON.stringify(response.body).slice(0, 1500)}`,
    );
  }
}
