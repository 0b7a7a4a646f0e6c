/**
 * The daily reference refresh's ports: the live registry (the refresh never reads the sandbox)
 * and the reference store in the main table.
 */
import { liveRegistryCall } from '../../adapters/registry-http/live.ts';
import type { PortRoot } from '../../kernel/capability-ports.ts';
import { DynamoReferenceStore } from '../adapters/dynamodb.ts';
import { httpReference } from '../adapters/registry-http.ts';
import type { ReferenceRegistry } from '../registry-port.ts';
import { referenceRegistryProtocol } from '../registry-protocol.ts';
import type { ReferenceStore } from '../store-port.ts';

export const liveReferenceRegistry = (root: PortRoot): ReferenceRegistry =>
  httpReference(liveRegistryCall(root.config, referenceRegistryProtocol));

export const referenceStore = (root: PortRoot): ReferenceStore =>
  new DynamoReferenceStore(root.config.mainTable);
