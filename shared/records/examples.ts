/** The record lookups' request examples (the sandbox's record cases, docs/sandbox.md). */
import type { RequestExample } from '../http/openapi/examples.ts';

export const recordExamples: Readonly<Record<string, RequestExample>> = {
  GetDocument: {
    summary: "BLUEGUM ORCHARDS PTY LTD's 484 of 2016, with three sub-forms",
    path: { number: '9E0010007' },
  },
  ListDocuments: {
    summary:
      'Three documents in one call: a 484 with sub-forms, a financial report with XBRL, a form the schedule does not know',
    query: { 'numbers[]': ['9E0010007', '9E0010005', '9E0170002'] },
  },
  GetBusinessName: {
    summary: 'HARBOUR LIGHTS CATERING: one holder, registered in NSW in 2009',
    path: { id: '990000265' },
  },
  FindBusinessNames: {
    summary: 'The business name NSW registered as BN00731224 before 2012',
    query: { stateNumber: 'BN00731224', jurisdiction: 'NSW' },
  },
  GetNameReservation: {
    summary: 'KOOKABURRA LANE PTY LTD, reserved for a proprietary company and extended by a 410F',
    path: { id: '990003113' },
  },
};
