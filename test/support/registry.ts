import type { RegistryPostalDelivery } from '../../shared/orders/registry-port.ts';

/** A postal delivery for registry order tests: one fixed recipient, the given requests. */
export const postalDelivery = (clientKey: string, registryRequestIds: string[]): RegistryPostalDelivery => ({
  clientKey,
  registryRequestIds,
  recipient: 'LEGAL DEPARTMENT',
  address: '1 GEORGE STREET SYDNEY NSW',
  postcode: '2000',
  contactName: 'ALEX CHEN',
  contactPhone: '0291234567',
});
