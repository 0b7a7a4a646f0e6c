/** One register entry by its number (free), in the shape of a browse row. */
import type { RegistryCaller } from '../ports/registry/common.ts';
import { presentRegisterEntry } from './present.ts';
import type { RegisterRegistry } from './registry-port.ts';
import { checkEntryNumber, checkRegister, fromRegisters } from './request.ts';

export async function getRegisterEntry(input: {
  register: string;
  number: string;
  caller: RegistryCaller;
  registry: RegisterRegistry;
}) {
  const register = checkRegister(input.register);
  const number = checkEntryNumber(input.number);
  const entry = await fromRegisters(input.registry.getRegisterEntry(register, number, input.caller), {
    '01': 'register',
    '51': 'number',
  });
  return presentRegisterEntry(entry);
}
