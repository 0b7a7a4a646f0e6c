import type { RoutePorts } from '../../shared/app/ports.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { byRecordStatus, readSection, type StatusRecord } from '../../shared/companies/sections.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

interface AddressRecord extends StatusRecord {
  type: { code: string };
}

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listAddresses>) =>
  createHttpHandler(companyRoutes.listAddresses, ports, async (input) => {
    const status = input.query.status ?? 'current';
    const { extract, data } = await readSection(ports, input, 'addresses', status !== 'current');
    const { records, contactAddress } = data as {
      records: AddressRecord[];
      contactAddress: AddressRecord | null;
    };
    const type = input.query.type;
    const candidates = type === 'CC' ? (contactAddress ? [contactAddress] : []) : records;
    const matching = candidates
      .filter((record) => type === undefined || record.type.code === type)
      .filter(byRecordStatus(status));
    return {
      body: {
        object: 'list',
        data: matching,
        hasMore: false,
        nextCursor: null,
        totalCount: matching.length,
        extract,
        contactAddress,
      },
    };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listAddresses, { heldExtracts, registryFor }),
);
