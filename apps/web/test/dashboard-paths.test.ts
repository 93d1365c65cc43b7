import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInUrl } from '../src/dashboard/paths.ts';

describe('dashboard return paths', () => {
  it('keeps dashboard paths with their query', () => {
    expect(safeReturnPath('/dashboard')).toBe('/dashboard');
    expect(safeReturnPath('/dashboard/developers?tab=keys')).toBe('/dashboard/developers?tab=keys');
    expect(safeReturnPath('/dashboard?x=1')).toBe('/dashboard?x=1');
  });

  it('sends anything else to the dashboard home: other sites, other pages, tricks', () => {
    for (const path of [null, undefined, '', 'https://evil.example/dashboard', '//evil.example/dashboard', '/dashboard//evil.example', '/dashboard/\\evil', '/v1/keys', '/dashboardx', '/dashboard/ space', 'dashboard']) {
      expect(safeReturnPath(path)).toBe('/dashboard');
    }
  });

  it('builds the sign-in address with the return path and the reason', () => {
    expect(signInUrl('/dashboard')).toBe('/sign-in');
    expect(signInUrl('/dashboard/account', 'session_ended')).toBe('/sign-in?next=%2Fdashboard%2Faccount&reason=session_ended');
    expect(signInUrl('//evil.example', 'signed_out')).toBe('/sign-in?reason=signed_out');
  });
});
