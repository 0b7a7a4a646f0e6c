import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { pageOfArray } from '../../shared/domain/cursor.ts';
import { pageRequest } from '../../shared/http/paging.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { formsInCategory, presentForm } from '../../shared/reference/forms.ts';

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
