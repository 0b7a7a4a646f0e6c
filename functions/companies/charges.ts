import type { RoutePorts } from '../../shared/app/ports.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { readSection, type StatusRecord } from '../../shared/companies/sections.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

const STATUS_CODES = { satisfied: ['SATF'], deleted: ['DELT'], all: ['SATF', 'DELT'] } as const;

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listCharges>) =>
  createHttpHandler(companyRoutes.listCharges, ports, async (input) => {
    const status = input.query.status ?? 'satisfied';
    const { extract, data } = await readSection(ports, input, 'charges', true);
    const wanted: readonly string[] = STATUS_CODES[status];
    // Unknown statuses are kept under `all`: code sets are open.
    const charges = (data as StatusRecord[]).filter(
      (charge) => status === 'all' || wanted.includes(charge.status.code),
    );
    return {
      body: { object: 'list', data: charges, hasMore: false, nextCursor: null, totalCount: null, extract },
    };
  });

export const handler = createHandler(awsRoutePorts(companyRoutes.listCharges, { heldExtracts, registryFor }));
