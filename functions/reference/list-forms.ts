import type { HttpPorts } from '../../shared/app/ports.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { formsInCategory, presentForm } from '../../shared/reference/forms.ts';
import { referenceRoutes } from '../../shared/reference/routes.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(referenceRoutes.listForms, ports, async ({ query, auth }) => {
    const category = query.category ?? 'all';
    const page = await pageOfArray(
      formsInCategory(category),
      pageRequest(ports, referenceRoutes.listForms, auth, query, { category }),
    );
    return { body: { object: 'list', ...page, data: page.data.map((form) => presentForm(form, category)) } };
  });

export const handler = createHandler(awsHttpPorts({}));
