import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../../local/stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    registryUrl: string;
    tableNames: LocalStack['tableNames'];
    /** The secret the stack signs cursors with, so a test can mint authentic ones. */
    cursorSecret: string;
  }
}

let stack: LocalStack | undefined;

/** Starts the same local stack `npm start` runs (DynamoDB Local in memory) once for all HTTP tests. */
export async function setup(project: TestProject) {
  stack = await startLocalStack({ port: 0, dynamoPort: 0, logLevel: 'ERROR' });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('registryUrl', stack.registryUrl);
  project.provide('tableNames', stack.tableNames);
  const secret = stack.ports.config.cursorSecret;
  if (!secret || !('value' in secret)) throw new Error('the local stack signs cursors with a literal secret');
  project.provide('cursorSecret', secret.value);
}

export async function teardown() {
  await stack?.stop();
}
