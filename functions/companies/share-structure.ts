import type { RoutePorts } from '../../shared/app/ports.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { byRecordStatus, readSection, type StatusRecord } from '../../shared/companies/sections.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.getShareStructure>) =>
  createHttpHandler(companyRoutes.getShareStructure, ports, async (input) => {
    const status = input.query.status ?? 'current';
    const { extract, data } = await readSection(ports, input, 'shareStructure', status !== 'current');
    const { shareClasses, members } = data as { shareClasses: StatusRecord[]; members: StatusRecord[] };
    const keep = byRecordStatus(status);
    return {
      body: {
        object: 'shareStructure',
        extract,
        shareClasses: shareClasses.filter(keep),
        members: members.filter(keep),
      },
    };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.getShareStructure, { heldExtracts, registryFor }),
);
