import { describe, expect, it } from 'vitest';
import { makerKey, makerLabel, makerOptions, makerQuery, parseMakerKey } from './made-by';

describe('made by', () => {
  it('writes and reads the filter value', () => {
    expect(makerKey({ kind: 'user', id: 4 })).toBe('user:4');
    expect(parseMakerKey('token:12')).toEqual({ kind: 'token', id: 12 });
    for (const bad of ['', 'user:', 'user:0', 'user:-1', 'admin:3', 'user:3x', null, undefined]) {
      expect(parseMakerKey(bad), String(bad)).toBeNull();
    }
  });

  it('asks the server for the recordings of one account or one token', () => {
    expect(makerQuery('user:4')).toEqual({ created_by_user_id: 4 });
    expect(makerQuery('token:2')).toEqual({ created_by_token_id: 2 });
    expect(makerQuery(null)).toEqual({});
  });

  it('names a device token as a device, and nobody for a recording made before accounts', () => {
    expect(makerLabel({ kind: 'user', id: 1, name: 'alice' })).toBe('alice');
    expect(makerLabel({ kind: 'token', id: 1, name: 'kitchen-pi' })).toBe('kitchen-pi (device)');
    expect(makerLabel(null)).toBeNull();
  });

  it('offers each maker once, accounts before devices, by name', () => {
    const recordings = [
      { created_by: { kind: 'token' as const, id: 3, name: 'stage-pi' } },
      { created_by: { kind: 'user' as const, id: 2, name: 'bob' } },
      { created_by: null },
      { created_by: { kind: 'user' as const, id: 2, name: 'bob' } },
    ];
    expect(makerOptions(recordings).map(makerKey)).toEqual(['user:2', 'token:3']);
    // An admin also sees the accounts and tokens that made nothing in this list.
    const options = makerOptions(recordings, [{ id: 1, name: 'Alice' }], [{ id: 5, name: 'bar-laptop' }]);
    expect(options.map(makerKey)).toEqual(['user:1', 'user:2', 'token:5', 'token:3']);
  });
});
