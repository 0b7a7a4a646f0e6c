import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { formSchedule } from '../../shared/reference/composition/form-schedule.ts';
import { freshnessHeaders } from '../../shared/reference/current.ts';
import { presentForm } from '../../shared/reference/forms.ts';
import * as referenceRoutes from '../../shared/reference/routes.ts';

export const createHandler = (ports: RoutePorts<typeof referenceRoutes.listForms>) =>
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

export const handler = createHandler(awsRoutePorts(referenceRoutes.listForms, { formSchedule }));
