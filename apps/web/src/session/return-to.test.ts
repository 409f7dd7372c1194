import { describe, expect, it } from 'vitest';
import { loginPathFor, returnPath } from './return-to.ts';

describe('return after sign-in', () => {
  it('sends a visitor to /login with the page they asked for, and back there', () => {
    const login = loginPathFor('/targets/7b9e', '?tab=skipped&sudo=a%40b.org');
    expect(login).toBe('/login?next=%2Ftargets%2F7b9e%3Ftab%3Dskipped');
    const next = new URLSearchParams(login.split('?')[1]).get('next');
    expect(returnPath(next)).toBe('/targets/7b9e?tab=skipped');
  });

  it('follows only in-app paths', () => {
    for (const bad of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/login',
      '/logout?x=1',
    ]) {
      expect(returnPath(bad)).toBe('/');
    }
    expect(returnPath('/excluded')).toBe('/excluded');
  });
});
