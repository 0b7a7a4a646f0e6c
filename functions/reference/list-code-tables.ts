import { codeTableSet } from '../../shared/composition/aws/code-tables.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { freshnessHeaders } from '../../shared/reference/current.ts';
import { codeTableSummaries } from '../../shared/reference/presenters.ts';

export const createHandler = (ports: HttpPorts<'codeTableSet'>) =>
  createHttpHandler(referenceRoutes.listCodeTables, ports, async () => {
    const tables = await ports.codeTableSet();
    const data = codeTableSummaries(tables.data.all, ports.config.docsUrl);
    return {
      body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length },
      headers: freshnessHeaders(tables.refreshedAt),
    };
  });

export const handler = createHandler(awsHttpPorts({ codeTableSet }));
