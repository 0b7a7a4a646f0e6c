import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { pageOfArray } from '../../shared/domain/cursor.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { formsInCategory, presentForm } from '../../shared/reference/forms.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const createHandler = (ports: HttpPorts) =>
  createHttpHandler(referenceRoutes.listForms, ports, async ({ query, auth }) => {
    const category = query.category ?? 'all';
    const page = await pageOfArray(formsInCategory(category), {
      route: referenceRoutes.listForms.name,
      filters: { category },
      owner: auth,
      limit: query.limit ?? PAGE_SIZE.default,
      cursor: query.cursor,
      codec: ports.cursors,
    });
    return { body: { object: 'list', ...page, data: page.data.map((form) => presentForm(form, category)) } };
  });

export const handler = createHandler(awsHttpPorts({}));
