/**
 * GET /v1/registers: the served registers, from the code tables and the port's register list. No
 * registry call, so it keeps answering during the registry's maintenance windows.
 */
import { labelFor } from '../reference/code-tables.ts';
import { registerExtractProduct } from './fees.ts';
import { registerCodes, servedRegisters } from './registry-port.ts';

export const listRegisters = () => {
  const data = registerCodes.map((code) => ({
    object: 'register' as const,
    code,
    label: labelFor('register-types', code),
    family: servedRegisters[code].family,
    identifierField: servedRegisters[code].identifierField,
    feeCode: registerExtractProduct.feeCodes[code],
  }));
  return { object: 'list' as const, data, hasMore: false, nextCursor: null, totalCount: data.length };
};
