/** Name reservations (form 410, extended by 410F): one by its registry number. */

import { ApiError } from '../kernel/errors/api-error.ts';
import { apiErrorFromRegistry } from '../kernel/registry-errors.ts';
import type { RegistryCaller } from '../kernel/registry-port.ts';
import { recordNumber, rejectedWith } from './identifiers.ts';
import type { RecordsRegistry, RegistryNameReservation } from './registry-port.ts';

export async function getNameReservation(
  registry: Pick<RecordsRegistry, 'getNameReservation'>,
  id: string,
  caller: RegistryCaller,
): Promise<RegistryNameReservation> {
  const number = recordNumber(id, 'id');
  try {
    return await registry.getNameReservation(number, caller);
  } catch (error) {
    if (rejectedWith(error, 'CE03')) {
      throw new ApiError('company_not_found', {
        param: 'id',
        registryCode: error.registryCode,
        message: `No name reservation has the number ${number}. A business name is read at GET /v1/business-names/{id}, any other organisation at GET /v1/companies/{id}.`,
      });
    }
    throw apiErrorFromRegistry(error, 'id');
  }
}
