import { pageOfArray } from '../../shared/domain/cursor.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import { formsInCategory, presentForm } from '../../shared/reference/forms.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const handler = createHttpHandler(referenceRoutes.listForms, async ({ query, auth, services }) => {
  const category = query.category ?? 'all';
  const page = await pageOfArray(formsInCategory(category), {
    route: referenceRoutes.listForms.name,
    filters: { category },
    owner: auth,
    limit: query.limit ?? PAGE_SIZE.default,
    cursor: query.cursor,
    codec: services.cursors,
  });
  return { body: { object: 'list', ...page, data: page.data.map((form) => presentForm(form, category)) } };
});
