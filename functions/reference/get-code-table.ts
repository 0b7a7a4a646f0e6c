import { codeTableSet } from '../../shared/composition/aws/code-tables.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { ApiError } from '../../shared/errors/api-error.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { freshnessHeaders } from '../../shared/reference/current.ts';
import { presentCodeTable } from '../../shared/reference/presenters.ts';

export const createHandler = (ports: HttpPorts<'codeTableSet'>) =>
  createHttpHandler(referenceRoutes.getCodeTable, ports, async ({ path }) => {
    const tables = await ports.codeTableSet();
    const table = tables.data.find(path.table);
    if (!table) {
      throw new ApiError('code_table_not_found', {
        param: 'table',
        message: `No code table is called '${path.table}'. GET /v1/reference/code-tables lists them.`,
      });
    }
    return {
      body: presentCodeTable(table, ports.config.docsUrl),
      headers: freshnessHeaders(tables.refreshedAt),
    };
  });

export const handler = createHandler(awsHttpPorts({ codeTableSet }));
