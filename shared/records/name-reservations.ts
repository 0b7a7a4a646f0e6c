/** Name reservations (form 410, extended by 410F): one by its registry number. */
import { ApiError } from '../errors/api-error.ts';
import type { RecordsRegistry, RegistryCaller, RegistryNameReservation } from '../ports/registry.ts';
import { apiErrorFromRegistry } from '../registry/errors.ts';
import { recordNumber, rejectedWith } from './identifiers.ts';

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
