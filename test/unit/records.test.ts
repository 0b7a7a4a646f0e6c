/**
 * The record lookups' use cases over a fake registry: what is checked before the registry is
 * asked (and that it then is not), how its rejections become client errors, and that a batch is
 * one call.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { type RegistryCaller, RegistryRejection } from '../../shared/kernel/registry-port.ts';
import { findBusinessNames, getBusinessName } from '../../shared/records/business-names.ts';
import { lookUpDocuments } from '../../shared/records/documents.ts';
import { getNameReservation } from '../../shared/records/name-reservations.ts';
import type {
  BusinessNameQuery,
  RecordsRegistry,
  RegistryBusinessName,
  RegistryDocumentDetails,
  RegistryNameReservation,
} from '../../shared/records/registry-port.ts';

const caller: RegistryCaller = { accountId: 'acct_1', requestId: 'req_1' };

/** Records what it is asked; answers from `answer`, or throws what it is given. */
class FakeRecords implements RecordsRegistry {
  readonly calls: unknown[][] = [];
  constructor(private readonly answer: (method: string, args: unknown[]) => unknown) {}
  async getDocumentDetails(numbers: readonly string[]) {
    return this.respond('getDocumentDetails', [numbers]) as RegistryDocumentDetails[];
  }
  async findBusinessNames(query: BusinessNameQuery) {
    return this.respond('findBusinessNames', [query]) as RegistryBusinessName[];
  }
  async getNameReservation(number: string) {
    return this.respond('getNameReservation', [number]) as RegistryNameReservation;
  }
  private respond(method: string, args: unknown[]) {
    this.calls.push([method, ...args]);
    return this.answer(method, args);
  }
}

const rejecting = (code: string, details?: Record<string, unknown>) =>
  new FakeRecords(() => {
    throw new RegistryRejection(code, `rejected ${code}`, details);
  });
const echoDocuments = () =>
  new FakeRecords((_method, [numbers]) =>
    (numbers as string[]).map((documentNumber) => ({ documentNumber }) as RegistryDocumentDetails),
  );

async function apiError(
  promise: Promise<unknown>,
): Promise<Pick<ApiError, 'code' | 'param' | 'registryCode' | 'details'>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, param, registryCode, details } = error as ApiError;
    return { code, param, registryCode, details };
  }
  throw new Error('expected an ApiError');
}

const inBatch = (index: number) => `numbers[${index}]`;

describe('lookUpDocuments', () => {
  it('sends the numbers trimmed and upper-cased, in one call, and answers in that order', async () => {
    const registry = echoDocuments();
    const found = await lookUpDocuments(registry, [' 9e0010007', '9E0010005 '], caller, inBatch);
    expect(found.map((d) => d.documentNumber)).toStrictEqual(['9E0010007', '9E0010005']);
    expect(registry.calls).toStrictEqual([['getDocumentDetails', ['9E0010007', '9E0010005']]]);
  });

  it('checks every number’s form before any repeat, and asks the registry nothing', async () => {
    const registry = echoDocuments();
    expect(
      await apiError(lookUpDocuments(registry, ['9E0010007', '9E0010007', 'X'], caller, inBatch)),
    ).toStrictEqual({
      code: 'document_number_invalid',
      param: 'numbers[2]',
      registryCode: null,
      details: undefined,
    });
    expect(
      await apiError(lookUpDocuments(registry, ['9E0010007', '9E0010005', '9e0010007'], caller, inBatch)),
    ).toStrictEqual({
      code: 'duplicate_document_number',
      param: 'numbers[2]',
      registryCode: null,
      details: { documentNumber: '9E0010007' },
    });
    expect(registry.calls).toStrictEqual([]);
  });

  it.each([
    ['DD01', 'document_number_invalid', 'numbers[1]'],
    ['DD51', 'document_not_found', 'numbers[1]'],
    ['DD52', 'document_not_imaged', 'numbers[1]'],
  ])('names the number of a registry %s on its place', async (registryCode, code, param) => {
    const registry = rejecting(registryCode, { documentNumber: '9E0010005' });
    expect(
      await apiError(lookUpDocuments(registry, ['9E0010007', '9E0010005'], caller, inBatch)),
    ).toStrictEqual({
      code,
      param,
      registryCode,
      details: { documentNumber: '9E0010005' },
    });
  });

  it('names the second occurrence of a registry DD02', async () => {
    // The registry may compare more loosely than we do; its repeat is named where it occurs again.
    const registry = rejecting('DD02', { documentNumber: '9E0010007' });
    expect(
      await apiError(lookUpDocuments(registry, ['9E0010007', '9E0010005'], caller, inBatch)),
    ).toMatchObject({
      code: 'duplicate_document_number',
      param: 'numbers[0]',
    });
  });

  it('passes a maintenance window on as registry_unavailable with Retry-After', async () => {
    try {
      await lookUpDocuments(rejecting('ZZ51'), ['9E0010007'], caller, () => 'number');
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect([(error as ApiError).code, (error as ApiError).headers]).toStrictEqual([
        'registry_unavailable',
        { 'Retry-After': '300' },
      ]);
    }
  });
});

describe('business names', () => {
  it('sends one kind of number, normalised', async () => {
    const registry = new FakeRecords(() => [{ number: 'X' }]);
    await getBusinessName(registry, ' 990 000 265 ', caller);
    await findBusinessNames(registry, { stateNumber: ' bn 00731224 ', jurisdiction: 'NSW' }, caller);
    await findBusinessNames(registry, { number: 'ab12' }, caller);
    expect(registry.calls).toStrictEqual([
      ['findBusinessNames', { number: '990000265', stateNumber: null, jurisdiction: null }],
      ['findBusinessNames', { number: null, stateNumber: 'BN 00731224', jurisdiction: 'NSW' }],
      ['findBusinessNames', { number: 'AB12', stateNumber: null, jurisdiction: null }],
    ]);
  });

  it.each([
    [{ number: '1', stateNumber: 'BN1', jurisdiction: 'NSW' }, 'identifier_conflict', 'stateNumber'],
    [{ stateNumber: 'BN1' }, 'identifier_conflict', 'jurisdiction'],
    [{ stateNumber: 'BN1', jurisdiction: ' ' }, 'identifier_conflict', 'jurisdiction'],
    [{}, 'validation_error', 'stateNumber'],
    [{ jurisdiction: 'NSW' }, 'validation_error', 'stateNumber'],
    [{ number: '1', jurisdiction: 'NSW' }, 'validation_error', 'jurisdiction'],
    [{ stateNumber: 'BN1', jurisdiction: 'XX' }, 'validation_error', 'jurisdiction'],
    [{ stateNumber: '#1', jurisdiction: 'NSW' }, 'validation_error', 'stateNumber'],
    [{ number: '1-2' }, 'validation_error', 'number'],
  ])('%j → %s on %s, before the registry is asked', async (search, code, param) => {
    const registry = new FakeRecords(() => []);
    expect(await apiError(findBusinessNames(registry, search, caller))).toMatchObject({ code, param });
    expect(registry.calls).toStrictEqual([]);
  });

  it('maps CD08 and CD09 to business_name_not_found on the parameter used', async () => {
    expect(await apiError(getBusinessName(rejecting('CD08'), '990000998', caller))).toMatchObject({
      code: 'business_name_not_found',
      param: 'id',
      registryCode: 'CD08',
    });
    expect(
      await apiError(
        findBusinessNames(rejecting('CD09'), { stateNumber: 'BN9', jurisdiction: 'VIC' }, caller),
      ),
    ).toMatchObject({ code: 'business_name_not_found', param: 'stateNumber', registryCode: 'CD09' });
  });
});

describe('name reservations', () => {
  it('refuses a malformed number before asking, and maps CE03 to company_not_found on id', async () => {
    const registry = rejecting('CE03');
    expect(await apiError(getNameReservation(registry, '**', caller))).toMatchObject({
      code: 'validation_error',
      param: 'id',
    });
    expect(registry.calls).toStrictEqual([]);
    expect(await apiError(getNameReservation(registry, '990003113', caller))).toMatchObject({
      code: 'company_not_found',
      param: 'id',
      registryCode: 'CE03',
    });
    expect(registry.calls).toStrictEqual([['getNameReservation', '990003113']]);
  });
});
