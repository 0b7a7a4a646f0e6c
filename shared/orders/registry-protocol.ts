/**
 * The orders capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */

import type { CompanySearchScope } from '../kernel/registry-port.ts';
import { isObject, ownClientKey, registryOperation } from '../kernel/registry-protocol.ts';
import type { OrdersRegistry, RegistryImageRequestItem, RegistryPostalDelivery } from './registry-port.ts';

const operation = registryOperation<OrdersRegistry>('orders');

/** The start of a PDF (`%PDF-`) in base64. */
const PDF_BASE64_PREFIX = 'JVBERi0';

export const ordersRegistryProtocol = {
  'charges.plan': operation({
    method: 'planChargesExtract',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: (v) =>
      isObject(v) && isObject(v.company) && typeof v.scope === 'string' && Array.isArray(v.documents),
    doc: { args: '`number`', result: '`RegistryChargesExtractPlan`' },
  }),
  'documents.get': operation({
    method: 'getDocuments',
    billable: false,
    timeout: 'lookup',
    args: { numbers: 'strings' },
    toPort: (a, caller) => [a.numbers, caller],
    isResult: (v) => Array.isArray(v),
    doc: { args: '`numbers` (list of up to 50 document numbers)', result: '`RegistryImageableDocument[]`' },
  }),
  'images.request': operation({
    method: 'requestImages',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { clientKey: 'string', documents: 'objects' },
    toPort: (a, caller) => [
      { clientKey: a.clientKey, documents: a.documents as unknown as RegistryImageRequestItem[] },
      caller,
    ],
    isResult: (v) => isObject(v) && typeof v.registryRequestId === 'string',
    doc: { args: '`clientKey`, `documents` (list of up to 10, below)', result: '`{registryRequestId}`' },
  }),
  'images.status': operation({
    method: 'getImageRequest',
    billable: false,
    timeout: 'lookup',
    args: { registryRequestId: 'string' },
    toPort: (a, caller) => [a.registryRequestId, caller],
    isResult: (v) =>
      isObject(v) &&
      typeof v.registryRequestId === 'string' &&
      typeof v.status === 'string' &&
      Array.isArray(v.documents),
    doc: { args: '`registryRequestId`', result: '`RegistryImageRequestStatus`' },
  }),
  'images.get': operation({
    method: 'getImages',
    billable: false,
    timeout: 'long',
    args: { registryRequestId: 'string', documentNumber: 'string' },
    toPort: (a, caller) => [a.registryRequestId, a.documentNumber, caller],
    isResult: (v) => isObject(v) && typeof v.pdf === 'string' && v.pdf.startsWith(PDF_BASE64_PREFIX),
    wire: {
      encode: (pdf) => ({ pdf: Buffer.from(pdf).toString('base64') }),
      decode: (value) => new Uint8Array(Buffer.from((value as { pdf: string }).pdf, 'base64')),
    },
    doc: { args: '`registryRequestId`, `documentNumber`', result: '`{pdf}` (base64 PDF)' },
  }),
  'post.request': operation({
    method: 'requestPostalDelivery',
    billable: false,
    clientKey: (a) => a.delivery.clientKey,
    timeout: 'lookup',
    args: { delivery: 'object' },
    toPort: (a, caller) => [a.delivery as unknown as RegistryPostalDelivery, caller],
    isResult: (v) => isObject(v) && typeof v.dispatchId === 'string',
    doc: { args: '`delivery` (object, below, with its `clientKey`)', result: '`{dispatchId}`' },
  }),
  'search.offline': operation({
    method: 'searchCompaniesOffline',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { name: 'string', scope: 'string', clientKey: 'string' },
    toPort: (a, caller) => [{ name: a.name, scope: a.scope as CompanySearchScope }, caller, a.clientKey],
    isResult: (v) => isObject(v) && Array.isArray(v.matches),
    doc: { args: '`name`, `scope`, `clientKey`', result: '`{matches}`' },
  }),
};
