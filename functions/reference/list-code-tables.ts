import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { codeTableSummaries } from '../../shared/reference/presenters.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(referenceRoutes.listCodeTables, ports, async () => {
    const data = codeTableSummaries(ports.config.docsUrl);
    return { body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length } };
  });

export const handler = createHandler(awsHttpPorts({}));
