/**
 * One local stack's API as a process of its own, on DynamoDB Local and the registry simulator of
 * the tests' stack (which outlive it): the process a test kills (SIGKILL, as a crash would) and
 * starts again on the same data and the same port (test/http/crash-recovery.test.ts). It prints
 * one line, `{"baseUrl": …}`, once it listens.
 *
 *   STACK_PORT=… STACK_DYNAMO=… STACK_REGISTRY_URL=… STACK_REGISTRY_CREDENTIAL=… node --import tsx test/support/stack-process.ts
 */
import { startLocalStack } from '../../local/stack.ts';

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};

const stack = await startLocalStack({
  port: Number(setting('STACK_PORT')),
  dynamoEndpoint: setting('STACK_DYNAMO'),
  registry: { url: setting('STACK_REGISTRY_URL'), credential: setting('STACK_REGISTRY_CREDENTIAL') },
  logLevel: 'ERROR',
});
process.stdout.write(`${JSON.stringify({ baseUrl: stack.baseUrl })}\n`);
