import { byRecordStatus, readSection, type StatusRecord } from '../../shared/company/sections.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = createHttpHandler(routes.getShareStructure, async (input) => {
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
