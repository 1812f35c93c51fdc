import { describe, expect, it } from 'vitest';
import { isPublicPath, loginPathFor, safeNextPath } from './auth-paths';

describe('isPublicPath', () => {
  it('is true for the login and setup pages only', () => {
    expect(isPublicPath('/login')).toBe(true);
    expect(isPublicPath('/setup/')).toBe(true);
    for (const path of ['/', '/settings', '/login-help', '/loginx', '/events/login']) {
      expect(isPublicPath(path), path).toBe(false);
    }
  });
});

describe('loginPathFor', () => {
  it('keeps the whole address to come back to', () => {
    expect(loginPathFor({ pathname: '/analytics', search: '?eventId=3', hash: '' })).toBe(
      '/login?next=%2Fanalytics%3FeventId%3D3',
    );
    expect(loginPathFor({ pathname: '/' })).toBe('/login?next=%2F');
  });
  it('never sends the login page back to itself', () => {
    expect(loginPathFor({ pathname: '/login', search: '?next=%2Fsongs' })).toBe('/login');
  });
});

describe('safeNextPath', () => {
  it('returns to a path of the app', () => {
    expect(safeNextPath('/analytics?eventId=3')).toBe('/analytics?eventId=3');
    expect(safeNextPath('/events/review#top')).toBe('/events/review#top');
  });
  it('goes to the Dashboard for anything else', () => {
    for (const next of [
      null,
      undefined,
      '',
      'settings',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/login',
      '/setup?token=x',
    ]) {
      expect(safeNextPath(next), String(next)).toBe('/');
    }
  });
});
