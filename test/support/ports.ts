/**
 * The pipeline's ports in a test process, against the DynamoDB Local the HTTP tests' stack runs:
 * for tests that drive a handler in process or inspect the stores directly.
 */

import { DynamoApiKeyRepository } from '../../shared/adapters/dynamodb/api-keys.ts';
import { DynamoLimiterStore } from '../../shared/adapters/dynamodb/limiter.ts';
import { DynamoRequestLog } from '../../shared/adapters/dynamodb/request-log.ts';
import { systemClock } from '../../shared/kernel/clock.ts';
import { readConfig, type ServiceConfig } from '../../shared/kernel/config.ts';
import { CursorCodec } from '../../shared/kernel/cursor.ts';
import type { PlatformPorts } from '../../shared/kernel/ports/platform.ts';
import { localStack } from './stack.ts';

const tableNames = localStack.tableNames;

// The DynamoDB clients of this process talk to the same DynamoDB Local as the server.
process.env.DYNAMODB_ENDPOINT = localStack.dynamoEndpoint;

export const testConfig: ServiceConfig = {
  ...readConfig({}),
  keysTable: tableNames.keys,
  limitsTable: tableNames.limits,
  mainTable: tableNames.main,
  idempotencyTable: tableNames.idempotency,
  cursorSecret: { value: localStack.cursorSecret },
  validateResponses: true,
};

export const testPorts: PlatformPorts = {
  config: testConfig,
  clock: systemClock,
  apiKeys: new DynamoApiKeyRepository(testConfig.keysTable),
  limiter: new DynamoLimiterStore(testConfig.limitsTable),
  requestLog: new DynamoRequestLog(testConfig.limitsTable),
  cursors: new CursorCodec(async () => localStack.cursorSecret, systemClock),
};
