import { tableDefinitions } from './infra/tables.ts';

/** Settings read from the environment once per process. Lambda gets them from CDK, the local stack sets them. */
export interface ServiceConfig {
  keysTable: string;
  limitsTable: string;
  mainTable: string;
  /** Base of the public docs: error links are `${docsUrl}/errors#<code>`. */
  docsUrl: string;
  /** A literal signing secret (local stack) or the ARN of the Secrets Manager secret (AWS). */
  cursorSecret: { value: string } | { arn: string } | undefined;
  /** Live keys' registry: its base URL and credential (literal locally, a secret's ARN on AWS). */
  registryUrl: string | undefined;
  registryCredential: { value: string } | { arn: string } | undefined;
  /** Check every response against its route's schema (local stack and tests). */
  validateResponses: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const cursorSecret = env.CURSOR_SECRET
    ? { value: env.CURSOR_SECRET }
    : env.CURSOR_SECRET_ARN
      ? { arn: env.CURSOR_SECRET_ARN }
      : undefined;
  return {
    // Only API functions authenticate: workflow functions have no keys or limits table.
    keysTable: env[tableDefinitions.keys.envVar] ?? '',
    limitsTable: env[tableDefinitions.limits.envVar] ?? '',
    mainTable: env[tableDefinitions.main.envVar] ?? '',
    docsUrl: env.DOCS_URL ?? 'https://docs.company-register.example.com',
    cursorSecret,
    registryUrl: env.REGISTRY_URL,
    registryCredential: env.REGISTRY_CREDENTIAL
      ? { value: env.REGISTRY_CREDENTIAL }
      : env.REGISTRY_CREDENTIAL_ARN
        ? { arn: env.REGISTRY_CREDENTIAL_ARN }
        : undefined,
    validateResponses: env.VALIDATE_RESPONSES === 'true',
  };
}
