import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../../local/stack.ts';
import { testCertificate } from '../../local/tls.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    registryUrl: string;
    /** The credential the registry simulator accepts, for a second stack process on the same registry (test/support/stack-process.ts). */
    registryCredential: string;
    tableNames: LocalStack['tableNames'];
    /** The secret the stack signs cursors with, so a test can mint authentic ones. */
    cursorSecret: string;
    /** A self-signed certificate for loopback webhook receivers, which the stack trusts (test/support/tls.ts). */
    webhookTls: { key: string; cert: string };
  }
}

let stack: LocalStack | undefined;

/** Starts the same local stack `npm start` runs (DynamoDB Local in memory) once for all HTTP tests. */
export async function setup(project: TestProject) {
  const tls = testCertificate();
  stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    logLevel: 'ERROR',
    // Loopback receivers only here, by configuration, trusting the tests' own certificate.
    webhooks: { allowLoopback: true, ca: tls.cert, retryIntervalMs: 250 },
  });
  project.provide('webhookTls', tls);
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('registryUrl', stack.registryUrl);
  const credential = stack.ports.config.registryCredential;
  if (!credential || !('value' in credential))
    throw new Error('the local stack has a literal registry credential');
  project.provide('registryCredential', credential.value);
  project.provide('tableNames', stack.tableNames);
  const secret = stack.ports.config.cursorSecret;
  if (!secret || !('value' in secret)) throw new Error('the local stack signs cursors with a literal secret');
  project.provide('cursorSecret', secret.value);
}

export async function teardown() {
  await stack?.stop();
}
