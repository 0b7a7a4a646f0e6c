import type { HttpPorts } from '../../shared/app/ports.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { codeTableSummaries } from '../../shared/reference/present.ts';
import { referenceRoutes } from '../../shared/reference/routes.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(referenceRoutes.listCodeTables, ports, async () => {
    const data = codeTableSummaries(ports.config.docsUrl);
    return { body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length } };
  });

export const handler = createHandler(awsHttpPorts({}));
