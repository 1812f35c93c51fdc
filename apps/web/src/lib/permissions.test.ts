import { api, type Identity } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { accessOf, canCall, canDeleteRecording, isMadeBy } from './permissions';

const admin: Identity = { kind: 'user', id: 1, name: 'ada', role: 'admin' };
const dj: Identity = { kind: 'user', id: 2, name: 'dan', role: 'dj' };
const viewer: Identity = { kind: 'user', id: 3, name: 'vic', role: 'viewer' };
const stagePi: Identity = { kind: 'token', id: 2, name: 'stage-pi', role: 'dj' };

describe('canCall', () => {
  it("follows the contract's access of each call", () => {
    for (const [name, endpoint] of Object.entries(api)) {
      expect(accessOf(name as keyof typeof api), name).toBe(endpoint.access);
    }
  });
  it('lets anyone call an anonymous endpoint, and nobody signed out call a guarded one', () => {
    expect(canCall(null, 'login')).toBe(true);
    expect(canCall(null, 'session')).toBe(true);
    expect(canCall(null, 'listEvents')).toBe(false);
    expect(canCall(undefined, 'overview')).toBe(false);
  });
  it('orders the roles viewer < dj < admin', () => {
    // Reading: every role.
    for (const who of [viewer, dj, admin]) expect(canCall(who, 'listRecordings'), who.role).toBe(true);
    // Recording, events, playlists, downloads: dj and admin.
    for (const name of ['uploadRecording', 'createEvent', 'regeneratePlaylists', 'startDownloads'] as const) {
      expect(canCall(viewer, name), name).toBe(false);
      expect(canCall(dj, name), name).toBe(true);
      expect(canCall(admin, name), name).toBe(true);
    }
    // Settings changes, deleting events and songs, accounts: admin only.
    for (const name of ['updateSettings', 'deleteEvent', 'deleteSong', 'listUsers', 'createToken'] as const) {
      expect(canCall(dj, name), name).toBe(false);
      expect(canCall(admin, name), name).toBe(true);
    }
  });
});

describe('deleting a recording', () => {
  const madeBy = (who: Identity) => ({ created_by: { kind: who.kind, id: who.id, name: who.name } });
  it('is for an admin on any recording', () => {
    expect(canDeleteRecording(admin, madeBy(dj))).toBe(true);
    expect(canDeleteRecording(admin, { created_by: null })).toBe(true);
  });
  it('is for a dj only on its own recordings', () => {
    expect(canDeleteRecording(dj, madeBy(dj))).toBe(true);
    expect(canDeleteRecording(dj, madeBy(admin))).toBe(false);
    expect(canDeleteRecording(dj, { created_by: null })).toBe(false);
    // A token with the same id is someone else.
    expect(canDeleteRecording(dj, madeBy(stagePi))).toBe(false);
    expect(canDeleteRecording(stagePi, madeBy(stagePi))).toBe(true);
  });
  it('is never for a viewer or a signed-out visitor', () => {
    expect(canDeleteRecording(viewer, madeBy(viewer))).toBe(false);
    expect(canDeleteRecording(null, madeBy(dj))).toBe(false);
  });
  it('compares kind and id, not the name', () => {
    expect(isMadeBy(dj, { kind: 'user', id: 2, name: 'renamed' })).toBe(true);
    expect(isMadeBy(dj, { kind: 'user', id: 9, name: 'dan' })).toBe(false);
  });
});
