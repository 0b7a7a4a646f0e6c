import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { lookUpDocuments } from '../../shared/records/documents.ts';
import { presentDocumentDetails } from '../../shared/records/present.ts';
import * as recordRoutes from '../../shared/records/routes.ts';

export const createHandler = (ports: RoutePorts<typeof recordRoutes.getDocument>) =>
  createHttpHandler(recordRoutes.getDocument, ports, async ({ path, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const [document] = await lookUpDocuments(
      registry,
      [path.number],
      { accountId: auth.accountId, requestId },
      () => 'number',
    );
    if (!document) throw new Error('the registry answered no document for one number');
    return { body: presentDocumentDetails(document) };
  });

export const handler = createHandler(awsRoutePorts(recordRoutes.getDocument, { registryFor }));
