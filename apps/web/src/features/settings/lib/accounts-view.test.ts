import { describe, expect, it } from 'vitest';
import { auditAction, auditActor, parseExpiryDays, recorderCommand, tokenStatus } from './accounts-view';

describe('tokenStatus', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('is active until revoked or past its expiry', () => {
    expect(tokenStatus({ revoked_at: null, expires_at: null }, now).label).toBe('Active');
    expect(tokenStatus({ revoked_at: null, expires_at: '2026-07-01T00:00:00Z' }, now).label).toBe('Active');
    expect(tokenStatus({ revoked_at: null, expires_at: '2026-05-01T00:00:00Z' }, now)).toMatchObject({
      label: expect.stringMatching(/^Expired /),
      tone: 'warning',
    });
  });
  it('says revoked before expired', () => {
    expect(
      tokenStatus({ revoked_at: '2026-04-01T00:00:00Z', expires_at: '2026-05-01T00:00:00Z' }, now),
    ).toMatchObject({ label: expect.stringMatching(/^Revoked /), tone: 'error' });
  });
});

describe('recorderCommand', () => {
  it('names this server and the token', () => {
    expect(recorderCommand('https://dj.example:8443', 'wcs_abc')).toBe(
      'wcs record --server https://dj.example:8443 --token wcs_abc',
    );
  });
});

describe('parseExpiryDays', () => {
  it('reads empty as never and whole days in range', () => {
    expect(parseExpiryDays('  ')).toEqual({ ok: true, days: undefined });
    expect(parseExpiryDays('30')).toEqual({ ok: true, days: 30 });
    expect(parseExpiryDays('3650')).toEqual({ ok: true, days: 3650 });
  });
  it('refuses fractions, zero, negatives and more than ten years', () => {
    for (const text of ['0', '-1', '1.5', '3651', 'soon']) {
      expect(parseExpiryDays(text).ok, text).toBe(false);
    }
  });
});

describe('audit wording', () => {
  it('says who acted and how', () => {
    expect(auditActor({ actor_kind: 'user', actor_name: 'alice' })).toBe('alice');
    expect(auditActor({ actor_kind: 'token', actor_name: 'stage-pi' })).toBe('stage-pi (device)');
    expect(auditActor({ actor_kind: 'anonymous', actor_name: 'mallory' })).toBe('mallory (not signed in)');
    expect(auditAction('sign_in_failed')).toBe('sign in failed');
  });
});
