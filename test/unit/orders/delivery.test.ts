import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/kernel/errors/api-error.ts';
import {
  checkDeliverySize,
  parseOfflineSearchDelivery,
  parseOrderDelivery,
} from '../../../shared/orders/delivery.ts';

const POST = {
  method: 'post',
  contactName: 'Jo Citizen',
  contactPhone: '+61 2 9000 0000',
  recipient: 'Legal Department',
  address: '1 George Street, Sydney NSW',
  postcode: '2000',
};

function errorOf(call: () => unknown): ApiError {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('order delivery', () => {
  it('accepts web alone, every other field null', () => {
    expect(parseOrderDelivery({ method: 'web' })).toEqual({
      method: 'web',
      email: null,
      contactName: null,
      contactPhone: null,
      recipient: null,
      address: null,
      postcode: null,
    });
  });

  it('accepts email with a valid address and post with every field', () => {
    expect(parseOrderDelivery({ method: 'email', email: 'jo@example.com' }).email).toBe('jo@example.com');
    expect(parseOrderDelivery(POST)).toMatchObject({ method: 'post', postcode: '2000', email: null });
    expect(parseOrderDelivery({ ...POST, recipient: ' Legal ' }).recipient).toBe('Legal');
  });

  it.each([
    [undefined, 'delivery'],
    ['web', 'delivery'],
    [{}, 'delivery.method'],
    [{ method: 'fax' }, 'delivery.method'],
    [{ method: 'WEB' }, 'delivery.method'],
    [{ method: 'email' }, 'delivery.email'],
    [{ method: 'email', email: 'not-an-address' }, 'delivery.email'],
    [{ method: 'email', email: 'a b@c.com' }, 'delivery.email'],
    [{ method: 'web', colour: 'blue' }, 'delivery.colour'],
    // A field of another method is refused, as the contract says (each method takes its own fields).
    [{ method: 'web', email: 'a@b.co' }, 'delivery.email'],
    [{ method: 'email', email: ' jo@example.com ' }, 'delivery.email'],
    [{ ...POST, email: 'a@b.co' }, 'delivery.email'],
    [{ ...POST, contactName: undefined }, 'delivery.contactName'],
    [{ ...POST, contactPhone: '' }, 'delivery.contactPhone'],
    [{ ...POST, contactPhone: 'call me' }, 'delivery.contactPhone'],
    [{ ...POST, recipient: null }, 'delivery.recipient'],
    [{ ...POST, address: 42 }, 'delivery.address'],
    [{ ...POST, postcode: '200' }, 'delivery.postcode'],
  ])('refuses %j with delivery_invalid on %s', (delivery, param) => {
    const error = errorOf(() => parseOrderDelivery(delivery));
    expect([error.code, error.status, error.param]).toEqual(['delivery_invalid', 400, param]);
  });

  it('says fax is not offered', () => {
    expect(errorOf(() => parseOrderDelivery({ method: 'fax' })).message).toContain('Fax is not offered');
  });
});

describe('offline search delivery', () => {
  it('takes email with an address, or webhook', () => {
    expect(parseOfflineSearchDelivery({ method: 'email', email: 'x@y.com' })).toEqual({
      method: 'email',
      email: 'x@y.com',
    });
    expect(parseOfflineSearchDelivery({ method: 'webhook' })).toEqual({ method: 'webhook' });
  });

  it.each([
    [{ method: 'web' }, 'delivery.method'],
    [{ method: 'post' }, 'delivery.method'],
    [{ method: 'email' }, 'delivery.email'],
    [{ method: 'webhook', email: 'x@y.com' }, 'delivery.email'],
    [{ method: 'webhook', url: 'https://x' }, 'delivery.url'],
  ])('refuses %j on %s', (delivery, param) => {
    const error = errorOf(() => parseOfflineSearchDelivery(delivery));
    expect([error.code, error.param]).toEqual(['delivery_invalid', param]);
  });
});

describe('delivery size', () => {
  it.each([
    ['email', 50],
    ['web', 500],
    ['post', 5000],
  ] as const)('%s takes %i pages', (method, pages) => {
    expect(() => checkDeliverySize(method, pages, 'This order')).not.toThrow();
  });

  it.each([
    ['email', 51, 50, 'use web or post'],
    ['email', 501, 50, 'use post'],
    ['web', 501, 500, 'use post'],
  ] as const)('%s refuses %i pages', (method, pages, limit, advice) => {
    const error = errorOf(() => checkDeliverySize(method, pages, 'This order'));
    expect([error.code, error.status, error.param]).toEqual([
      'document_too_large_for_delivery',
      422,
      'delivery.method',
    ]);
    expect(error.message).toBe(
      `This order has ${pages} pages: ${method} delivery takes at most ${limit}; ${advice}.`,
    );
    expect(error.details).toEqual({ pageCount: pages, method, limit });
  });
});
