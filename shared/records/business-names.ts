/**
 * Business names: by the registry's number, or by the number a state or territory gave the name
 * before the national register (2012) with its jurisdiction. One kind of number per request;
 * everything is checked before the registry is asked.
 */

import './errors.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { apiErrorFromRegistry } from '../kernel/registry-errors.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import { findCodeTable } from '../reference/code-tables.ts';
import { recordNumber, rejectedWith } from './identifiers.ts';
import type { RecordsRegistry, RegistryBusinessName } from './registry-port.ts';

const JURISDICTIONS: readonly string[] =
  findCodeTable('jurisdictions')?.entries.map((entry) => entry.code) ?? [];

/** State numbers have no common format (NSW BN00731224, QLD BN2027148): letters, digits, spaces, - and /. */
const STATE_NUMBER = /^[0-9A-Za-z][0-9A-Za-z /-]{0,29}$/;

const elsewhere =
  'A name reservation is read at GET /v1/name-reservations/{id}, any organisation at GET /v1/companies/{id}.';

export interface BusinessNameSearch {
  number?: string | undefined;
  stateNumber?: string | undefined;
  jurisdiction?: string | undefined;
}

function notFound(param: string, message: string) {
  return new ApiError('business_name_not_found', { param, message: `${message} ${elsewhere}` });
}

/** The business name with the registry's number `id` (the path's `{id}`). */
export async function getBusinessName(
  registry: Pick<RecordsRegistry, 'findBusinessNames'>,
  id: string,
  caller: RegistryCaller,
): Promise<RegistryBusinessName> {
  const number = recordNumber(id, 'id');
  const [found] = await find(registry, { number, stateNumber: null, jurisdiction: null }, caller, 'id');
  if (!found) throw notFound('id', `No business name has the number ${number}.`);
  return found;
}

/** The query's checks, in order: one kind of number, a jurisdiction with a state number only. */
function checkSearch(search: BusinessNameSearch) {
  const { number, stateNumber, jurisdiction } = search;
  if (number !== undefined && stateNumber !== undefined) {
    throw new ApiError('identifier_conflict', {
      param: 'stateNumber',
      message: 'Find a business name by number or by stateNumber (with jurisdiction), not both.',
    });
  }
  if (number === undefined && stateNumber === undefined) {
    throw new ApiError('validation_error', {
      param: 'stateNumber',
      message:
        'Give number (the registry number), or stateNumber with jurisdiction (a pre-2012 state registration).',
    });
  }
  if (stateNumber === undefined) {
    if (jurisdiction !== undefined) {
      throw new ApiError('validation_error', {
        param: 'jurisdiction',
        message: 'jurisdiction goes with stateNumber; a registry number is national.',
      });
    }
    return { number: recordNumber(number as string, 'number'), stateNumber: null, jurisdiction: null };
  }
  if (!STATE_NUMBER.test(stateNumber.trim())) {
    throw new ApiError('validation_error', {
      param: 'stateNumber',
      message:
        'stateNumber must be 1 to 30 letters, digits, spaces, hyphens or slashes, starting with a letter or digit.',
    });
  }
  if (jurisdiction === undefined || jurisdiction.trim() === '') {
    throw new ApiError('identifier_conflict', {
      param: 'jurisdiction',
      message: `A state number needs the jurisdiction that gave it: jurisdiction is one of ${JURISDICTIONS.join(', ')}.`,
    });
  }
  if (!JURISDICTIONS.includes(jurisdiction)) {
    throw new ApiError('validation_error', {
      param: 'jurisdiction',
      message: `jurisdiction must be a code of the jurisdictions table: ${JURISDICTIONS.join(', ')}.`,
    });
  }
  return { number: null, stateNumber: stateNumber.trim().toUpperCase(), jurisdiction };
}

/** The business names a search finds: one for a registry number, one or more for a state number. */
export async function findBusinessNames(
  registry: Pick<RecordsRegistry, 'findBusinessNames'>,
  search: BusinessNameSearch,
  caller: RegistryCaller,
): Promise<RegistryBusinessName[]> {
  const query = checkSearch(search);
  return find(registry, query, caller, query.number === null ? 'stateNumber' : 'number');
}

async function find(
  registry: Pick<RecordsRegistry, 'findBusinessNames'>,
  query: { number: string | null; stateNumber: string | null; jurisdiction: string | null },
  caller: RegistryCaller,
  param: string,
): Promise<RegistryBusinessName[]> {
  try {
    return await registry.findBusinessNames(query, caller);
  } catch (error) {
    if (rejectedWith(error, 'CD08', 'CD09')) {
      const message =
        query.number === null
          ? `No business name was registered in ${query.jurisdiction} with the state number ${query.stateNumber}.`
          : `No business name has the number ${query.number}.`;
      throw new ApiError('business_name_not_found', {
        param,
        registryCode: error.registryCode,
        message: `${message} ${elsewhere}`,
      });
    }
    throw apiErrorFromRegistry(error, param);
  }
}
