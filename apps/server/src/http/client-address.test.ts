import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address.ts';

describe('addressKey (the key per-address limits count a client under)', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::FFFF:c000:0207')).toBe('192.0.2.7');
    expect(addressKey('0:0:0:0:0:ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts every IPv6 address of one /64 under one key, whatever its spelling', () => {
    const keys = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:fffe',
      '2001:0DB8:0001:0002:abcd::9',
      '2001:db8:1:2:0:0:0:0',
      'fe80::1%eth0',
    ].map(addressKey);
    expect(new Set(keys.slice(0, 4))).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(keys[4]).toBe('fe80:0:0:0::/64');
  });

  it('keeps different /64 networks apart', () => {
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:db8::5:1.2.3.4')).toBe('2001:db8:0:0::/64');
  });
});
