import type { RoutePorts } from '../../shared/app/ports.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { byRecordStatus, readSection, type StatusRecord } from '../../shared/companies/sections.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listRelationships>) =>
  createHttpHandler(companyRoutes.listRelationships, ports, async (input) => {
    const status = input.query.status ?? 'all';
    const { extract, data } = await readSection(ports, input, 'relationships', false);
    const records = (data as StatusRecord[]).filter(byRecordStatus(status));
    return {
      body: {
        object: 'list',
        data: records,
        hasMore: false,
        nextCursor: null,
        totalCount: records.length,
        extract,
      },
    };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listRelationships, { heldExtracts, registryFor }),
);
