import type { HttpPorts } from '../../shared/app/ports.ts';
import { summaryOfCompany } from '../../shared/companies/present.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { readSection } from '../../shared/companies/sections.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: HttpPorts<'heldExtracts' | 'registryFor'>) =>
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

export const handler = createHandler(awsHttpPorts({ heldExtracts, registryFor }));
