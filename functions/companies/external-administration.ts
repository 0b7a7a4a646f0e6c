import type { RoutePorts } from '../../shared/app/ports.ts';
import { summaryOfCompany } from '../../shared/companies/present.ts';
import * as companyRoutes from '../../shared/companies/routes.ts';
import { readSection } from '../../shared/companies/sections.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof companyRoutes.getExternalAdministration>) =>
  createHttpHandler(companyRoutes.getExternalAdministration, ports, async (input) => {
    const { extract, summary, data } = await readSection(ports, input, 'externalAdministration', false);
    const section = data as { appointees: unknown[]; documents: unknown[] } | null;
    return {
      body: {
        object: 'externalAdministration',
        extract,
        company: summaryOfCompany(summary.company as Record<string, unknown>),
        underExternalAdministration: section !== null,
        appointees: section?.appointees ?? [],
        documents: section?.documents ?? [],
      },
    };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.getExternalAdministration, { heldExtracts, registryFor }),
);
