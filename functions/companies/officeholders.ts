import { byRecordStatus, readSection, type StatusRecord } from '../../shared/company/sections.ts';
import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { pageOfArray } from '../../shared/domain/cursor.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const createHandler = (ports: HttpPorts<'extracts' | 'registryFor'>) =>
  createHttpHandler(companyRoutes.listOfficeholders, ports, async (input) => {
    const status = input.query.status ?? 'current';
    const { extract, data } = await readSection(ports, input, 'officeholders', status !== 'current');
    const records = (data as StatusRecord[]).filter(byRecordStatus(status));
    const page = await pageOfArray(records, {
      route: companyRoutes.listOfficeholders.name,
      filters: { id: input.path.id, status, extract: extract.id },
      owner: input.auth,
      limit: input.query.limit ?? PAGE_SIZE.default,
      cursor: input.query.cursor,
      codec: ports.cursors,
    });
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(awsHttpPorts({ extracts, registryFor }));
