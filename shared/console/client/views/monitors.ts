/**
 * Monitors (docs/monitoring.md): the environment's monitors a page at a time, filtered by company;
 * add one; import a CSV, its dry run's row-by-row outcome shown before the commit; and each
 * monitor's recent changes from the monitoring feed. Every rule is the API's: this page only asks.
 */

import { monitoringEventTypes } from '../../../webhooks/event-types.ts';
import { ApiFailure, get, type Json, send } from '../api.ts';
import { h, plural, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

const PAGE = 20;
/** Feed pages read for one monitor's recent changes (100 events each); the newest are shown. */
const FEED_PAGES = 10;
const RECENT = 20;

const monitorsText = (n: number) => plural(n, 'monitor');

const failure = (error: unknown): HTMLElement =>
  h(
    'p',
    { class: 'error', role: 'alert' },
    error instanceof ApiFailure && error.param ? `${errorText(error)} (${error.param})` : errorText(error),
  );

/** A new key for each change the page makes: a double submit (or a retry) creates nothing twice. */
const idempotencyKey = () => ({ 'Idempotency-Key': `console-${crypto.randomUUID()}` });

export const subjectOf = (monitor: Json): string =>
  monitor.company
    ? `${monitor.company.formatted ?? monitor.company.acn} ${monitor.company.name ?? ''}`.trim()
    : monitor.person
      ? `${monitor.person.givenNames.join(' ')} ${monitor.person.familyName} (born ${monitor.person.birthDate})`
      : // An imported company monitor: the API names its company after the first daily check.
        `${monitor.companyNumber} (named after its first daily check)`;

/** `all` when the monitor takes every type of its kind (a company's or a person's). */
const typesOf = (monitor: Json): string =>
  monitor.eventTypes.length ===
  monitoringEventTypes.filter((type) => type.startsWith(`${monitor.kind}.`)).length
    ? `all ${monitor.kind} events`
    : monitor.eventTypes.join(', ');

/** What one event says, in a line. */
function changeText(event: Json): string {
  const data = event.data;
  const value = (v: Json) =>
    v === null || v === undefined ? '—' : typeof v === 'object' ? v.label : String(v);
  if (data.before !== undefined || data.after !== undefined)
    return `${value(data.before)} → ${value(data.after)}`;
  if (data.document) return `${data.document.formCode} ${data.document.formDescription}`;
  if (data.licenceNumber) return `licence ${data.licenceNumber}`;
  return data.date ? `on ${data.date}` : '';
}

const PROBLEMS: Record<string, string> = {
  invalid: 'Invalid',
  duplicate: 'Repeats an earlier row',
  already_watched: 'Already watched',
  over_cap: 'Over the 100,000 monitor limit',
};

function problemDetail(problem: Json): Node | string {
  if (problem.outcome === 'invalid' && problem.error)
    return h(
      'span',
      {},
      h('code', {}, problem.error.code),
      problem.error.param ? ` (${problem.error.param})` : '',
      `: ${problem.error.message}`,
    );
  if (problem.outcome === 'duplicate') return `same as row ${problem.duplicateOf}`;
  if (problem.outcome === 'already_watched') return h('code', {}, problem.monitorId ?? '');
  return '';
}

/** An import's outcome: its totals, then every row not (or, in a dry run, not to be) created. */
export function importResult(result: Json): Node[] {
  const t = result.totals;
  const summary = result.dryRun
    ? `Dry run of ${plural(result.rows, 'row')}: ${t.wouldCreate} would be created, ${t.alreadyWatched} already watched, ${t.invalid} invalid, ${plural(t.duplicate, 'duplicate')}, ${t.overCap} over the limit. Nothing was created.`
    : `Imported ${plural(result.rows, 'row')}: ${monitorsText(t.created)} created, ${t.alreadyWatched} already watched, ${t.invalid} invalid, ${plural(t.duplicate, 'duplicate')}, ${t.overCap} over the limit.`;
  return [
    h('p', { class: 'import-summary' }, summary),
    table(
      result.dryRun ? 'Rows that would not be created' : 'Rows not created',
      ['Row', 'Outcome', 'Detail'],
      (result.problems as Json[]).map((problem) => [
        String(problem.row),
        PROBLEMS[problem.outcome] ?? problem.outcome,
        problemDetail(problem),
      ]),
    ),
  ];
}

function eventTypeBoxes(name: string): HTMLFieldSetElement {
  return h(
    'fieldset',
    {},
    h('legend', {}, 'Event types (all when none is ticked)'),
    ...monitoringEventTypes.map((type) =>
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name, value: type }), ` ${type}`),
    ),
  );
}

export const monitors: View = {
  route: 'monitors',
  title: 'Monitors',
  nav: 'Monitors',
  async render({ announce, onLeave }) {
    // The list, a page at a time: the cursors of the pages before this one, for "Previous".
    const listArea = h('div', {});
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    let company = '';
    const showPage = async () => {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (company) query.set('company', company);
      if (cursor) query.set('cursor', cursor);
      let page: Json;
      try {
        page = await get(`v1/monitors?${query}`);
      } catch (error) {
        listArea.replaceChildren(failure(error));
        return;
      }
      const previous = h('button', { type: 'button', disabled: cursors.length === 0 }, 'Previous page');
      previous.addEventListener('click', () => {
        cursor = cursors.pop() ?? null;
        void showPage();
      });
      const next = h('button', { type: 'button', disabled: !page.hasMore }, 'Next page');
      next.addEventListener('click', () => {
        cursors.push(cursor);
        cursor = page.nextCursor;
        void showPage();
      });
      listArea.replaceChildren(
        table(
          company ? `Monitors of ${company}` : `Monitors, page ${cursors.length + 1}`,
          ['Watching', 'Kind', 'Event types', 'Events so far', 'Created', ''],
          (page.data as Json[]).map((monitor) => [
            subjectOf(monitor),
            monitor.kind,
            typesOf(monitor),
            String(monitor.sequence),
            when(monitor.createdAt),
            h(
              'a',
              { href: `#/monitors/${monitor.id}` },
              'Recent changes',
              h('span', { class: 'visually-hidden' }, ` of ${subjectOf(monitor)}`),
            ),
          ]),
        ),
        h('div', { class: 'row-actions' }, previous, next),
      );
    };

    const filterInput = h('input', {
      id: 'monitor-filter',
      name: 'company',
      maxlength: 20,
      placeholder: 'ACN or ABN',
    });
    const filter = h(
      'form',
      {
        class: 'inline-form',
        role: 'search',
        onsubmit: (event: Event) => {
          event.preventDefault();
          company = (filterInput as HTMLInputElement).value.trim();
          cursors.length = 0;
          cursor = null;
          void showPage();
        },
      },
      h('label', { for: 'monitor-filter' }, 'Company'),
      filterInput,
      h('button', { type: 'submit' }, 'Filter'),
    );

    // Add one.
    const addNotice = h('div', {});
    const addCompany = h('input', {
      id: 'monitor-company',
      name: 'company',
      required: true,
      maxlength: 20,
      autocomplete: 'off',
      'aria-describedby': 'monitor-company-hint',
    });
    const add = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const chosen = [...add.querySelectorAll<HTMLInputElement>('input[name="add-types"]:checked')].map(
            (input) => input.value,
          );
          try {
            const { body: monitor } = await send(
              'POST',
              'v1/monitors',
              {
                company: (addCompany as HTMLInputElement).value,
                ...(chosen.length ? { eventTypes: chosen } : {}),
              },
              idempotencyKey(),
            );
            addNotice.replaceChildren(
              h(
                'p',
                { class: 'success', role: 'status' },
                `Now watching ${subjectOf(monitor)} (${monitor.id}).`,
              ),
            );
            announce(`Monitor ${monitor.id} added.`);
            (add as HTMLFormElement).reset();
            void showPage();
          } catch (error) {
            addNotice.replaceChildren(failure(error));
          }
        },
      },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'monitor-company' }, 'Company'),
        h(
          'p',
          { id: 'monitor-company-hint', class: 'hint' },
          'An ACN, ARBN or ARSN, or an ABN that embeds one.',
        ),
        addCompany,
      ),
      eventTypeBoxes('add-types'),
      h('button', { type: 'submit' }, 'Add monitor'),
      addNotice,
    );

    // Import a CSV: the dry run first, its rows shown; then the commit of the same text.
    const csv = h('textarea', {
      id: 'import-csv',
      name: 'csv',
      rows: 6,
      required: true,
      spellcheck: false,
      'aria-describedby': 'import-csv-hint',
    }) as HTMLTextAreaElement;
    const file = h('input', { id: 'import-file', type: 'file', accept: '.csv,text/csv' }) as HTMLInputElement;
    file.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      if (chosen) csv.value = await chosen.text();
    });
    const importArea = h('div', { 'aria-live': 'polite' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    onLeave(() => clearTimeout(timer));

    /** A large import is accepted (202, `processing`) and finishes later: its resource is polled until it has. */
    const follow = (accepted: Json) => {
      const link = accepted.id ? h('code', {}, accepted.id) : null;
      const progress = (now: Json) =>
        h(
          'p',
          { role: 'status' },
          `The import is processing (${now.processedRows} of ${plural(now.rows, 'row')})… `,
          link,
        );
      importArea.replaceChildren(progress(accepted));
      if (!accepted.id) return;
      const poll = async () => {
        try {
          const now = await get(`v1/monitors/imports/${accepted.id}`);
          if (now.status !== 'processing') {
            importArea.replaceChildren(...importResult(now));
            announce('The import has finished.');
          } else {
            importArea.replaceChildren(progress(now));
            timer = setTimeout(poll, 2000);
          }
        } catch (error) {
          importArea.replaceChildren(failure(error));
        }
      };
      timer = setTimeout(poll, 2000);
    };

    const commit = async (text: string) => {
      try {
        const answer = await send('POST', 'v1/monitors/imports', { csv: text }, idempotencyKey());
        if (answer.body.status === 'processing') {
          follow(answer.body);
          return;
        }
        importArea.replaceChildren(...importResult(answer.body));
        announce(`Imported: ${monitorsText(answer.body.totals.created)} created.`);
        void showPage();
      } catch (error) {
        importArea.replaceChildren(failure(error));
      }
    };

    const dryRun = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const text = csv.value;
          try {
            const { body: result } = await send('POST', 'v1/monitors/imports', { dryRun: true, csv: text });
            const confirm = h(
              'button',
              { type: 'button', disabled: result.totals.wouldCreate === 0 },
              `Import ${monitorsText(result.totals.wouldCreate)}`,
            );
            confirm.addEventListener('click', () => {
              (confirm as HTMLButtonElement).disabled = true;
              void commit(text);
            });
            importArea.replaceChildren(...importResult(result), h('div', { class: 'row-actions' }, confirm));
            announce(
              `Dry run: ${result.totals.wouldCreate} would be created, ${plural(result.problems.length, 'row')} would not.`,
            );
          } catch (error) {
            importArea.replaceChildren(failure(error));
          }
        },
      },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'import-csv' }, 'CSV'),
        h(
          'p',
          { id: 'import-csv-hint', class: 'hint' },
          'A header naming the columns (company, familyName, givenNames, birthDate, eventTypes), then a row per line; eventTypes separated by |.',
        ),
        csv,
      ),
      h('div', { class: 'field' }, h('label', { for: 'import-file' }, 'Or read a file'), file),
      h('button', { type: 'submit' }, 'Check rows (dry run)'),
    );

    await showPage();
    return [
      h(
        'p',
        {},
        'Companies and people this environment watches; each change becomes an event (kept 90 days).',
      ),
      filter,
      listArea,
      h('h2', {}, 'Add a monitor'),
      add,
      h('h2', {}, 'Import from CSV'),
      h('p', {}, 'The rows are checked first and nothing is created until you confirm.'),
      dryRun,
      importArea,
    ];
  },
};

/** One monitor and its recent changes, newest first, from the monitoring feed. */
export const monitor: View = {
  route: 'monitors/:id',
  title: 'Monitor',
  async render({ params }) {
    const id = params[0] as string;
    const found = await get(`v1/monitors/${encodeURIComponent(id)}`);
    // The feed is oldest first; a company's events are filtered by the API, a person's here.
    const events: Json[] = [];
    let after: string | null = null;
    for (let page = 0; page < FEED_PAGES; page += 1) {
      const query = new URLSearchParams({ limit: '100' });
      if (found.company?.acn) query.set('company', found.company.acn);
      if (after) query.set('after', after);
      const feed: Json = await get(`v1/monitors/events?${query}`);
      events.push(...(feed.data as Json[]).filter((event) => event.data.monitorIds.includes(found.id)));
      after = feed.nextPosition ?? after;
      if (!feed.hasMore) break;
    }
    const recent = events.slice(-RECENT).reverse();
    const baseline = found.baseline;
    return [
      h('p', {}, h('a', { href: '#/monitors' }, 'All monitors')),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Watching'),
        h('dd', {}, subjectOf(found)),
        h('dt', {}, 'Monitor'),
        h('dd', {}, h('code', {}, found.id)),
        h('dt', {}, 'Event types'),
        h('dd', {}, typesOf(found)),
        h('dt', {}, 'Created'),
        h('dd', {}, when(found.createdAt)),
        ...(baseline
          ? [
              h('dt', {}, 'Baseline'),
              h('dd', {}, `${baseline.name}, ${baseline.status.label}, seen ${when(baseline.at)}`),
            ]
          : []),
      ),
      h('h2', {}, 'Recent changes'),
      table(
        'Recent changes, newest first (events are kept 90 days and listed a minute after they happen)',
        ['Sequence', 'Event', 'Change', 'When'],
        recent.map((event) => [
          String(event.data.sequence),
          event.type,
          changeText(event),
          when(event.createdAt),
        ]),
      ),
    ];
  },
};
