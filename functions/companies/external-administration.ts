import { summaryOfCompany } from '../../shared/company/presenters.ts';
import { readSection } from '../../shared/company/sections.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';

export const handler = createHttpHandler(companyRoutes.getExternalAdministration, async (input) => {
  const { extract, summary, data } = await readSection(input, 'externalAdministration', false);
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
