import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { codeTableSet } from '../../shared/reference/composition/code-tables.ts';
import { freshnessHeaders } from '../../shared/reference/current.ts';
import { codeTableSummaries } from '../../shared/reference/present.ts';
import * as referenceRoutes from '../../shared/reference/routes.ts';

export const createHandler = (ports: RoutePorts<typeof referenceRoutes.listCodeTables>) =>
  createHttpHandler(referenceRoutes.listCodeTables, ports, async () => {
    const tables = await ports.codeTableSet();
    const data = codeTableSummaries(tables.data.all, ports.config.docsUrl);
    return {
      body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length },
      headers: freshnessHeaders(tables.refreshedAt),
    };
  });

export const handler = createHandler(awsRoutePorts(referenceRoutes.listCodeTables, { codeTableSet }));
