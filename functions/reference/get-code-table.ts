import '../../shared/reference/errors.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { codeTableSet } from '../../shared/reference/composition/code-tables.ts';
import { freshnessHeaders } from '../../shared/reference/current.ts';
import { presentCodeTable } from '../../shared/reference/present.ts';
import * as referenceRoutes from '../../shared/reference/routes.ts';

export const createHandler = (ports: RoutePorts<typeof referenceRoutes.getCodeTable>) =>
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

export const handler = createHandler(awsRoutePorts(referenceRoutes.getCodeTable, { codeTableSet }));
