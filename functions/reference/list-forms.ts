import { formSchedule } from '../../shared/composition/aws/form-schedule.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { pageOfArray } from '../../shared/domain/cursor.ts';
import { pageRequest } from '../../shared/http/paging.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { freshnessHeaders } from '../../shared/reference/current.ts';
import { presentForm } from '../../shared/reference/forms.ts';

export const createHandler = (ports: HttpPorts<'formSchedule'>) =>
  createHttpHandler(referenceRoutes.listForms, ports, async ({ query, auth }) => {
    const category = query.category ?? 'all';
    const schedule = await ports.formSchedule();
    const page = await pageOfArray(
      schedule.data.inCategory(category),
      pageRequest(ports, referenceRoutes.listForms, auth, query, { category }),
    );
    return {
      body: { object: 'list', ...page, data: page.data.map((form) => presentForm(form, category)) },
      headers: freshnessHeaders(schedule.refreshedAt),
    };
  });

export const handler = createHandler(awsHttpPorts({ formSchedule }));
