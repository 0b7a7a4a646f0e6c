import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { lookUpDocuments } from '../../shared/records/documents.ts';
import { presentDocumentDetails } from '../../shared/records/present.ts';
import * as recordRoutes from '../../shared/records/routes.ts';

export const createHandler = (ports: RoutePorts<typeof recordRoutes.listDocuments>) =>
  createHttpHandler(recordRoutes.listDocuments, ports, async ({ query, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const documents = await lookUpDocuments(
      registry,
      query['numbers[]'],
      { accountId: auth.accountId, requestId },
      (index) => `numbers[${index}]`,
    );
    return {
      body: {
        object: 'list',
        data: documents.map(presentDocumentDetails),
        hasMore: false,
        nextCursor: null,
        totalCount: documents.length,
      },
    };
  });

export const handler = createHandler(awsRoutePorts(recordRoutes.listDocuments, { registryFor }));
