import { byRecordStatus, readSection, type StatusRecord } from '../../shared/company/sections.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';

export const handler = createHttpHandler(companyRoutes.getShareStructure, async (input) => {
  const status = input.query.status ?? 'current';
  const { extract, data } = await readSection(input, 'shareStructure', status !== 'current');
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
