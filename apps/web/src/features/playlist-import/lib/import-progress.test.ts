import { describe, expect, it } from 'vitest';
import { canStartImport, IDLE, type ImportState, importPercent, importReducer } from './import-progress.js';

describe('importReducer', () => {
  it('runs idle → importing with progress → done, one tick per playlist', () => {
    let state: ImportState = importReducer(IDLE, { type: 'start', ids: ['a', 'b', 'c', 'd'] });
    expect(state).toEqual({ status: 'importing', ids: ['a', 'b', 'c', 'd'], completed: 0 });
    expect(importPercent(state)).toBe(0);
    state = importReducer(state, { type: 'tick' });
    expect(importPercent(state)).toBe(25);
    state = importReducer(state, { type: 'tick' });
    state = importReducer(state, { type: 'tick' });
    expect(importPercent(state)).toBe(75);
    state = importReducer(state, { type: 'tick' });
    expect(state).toEqual({ status: 'done', ids: ['a', 'b', 'c', 'd'] });
    expect(importPercent(state)).toBe(100);
  });
  it('does not start with nothing selected or while running', () => {
    expect(importReducer(IDLE, { type: 'start', ids: [] })).toBe(IDLE);
    const running = importReducer(IDLE, { type: 'start', ids: ['a', 'b'] });
    expect(importReducer(running, { type: 'start', ids: ['c'] })).toBe(running);
  });
  it('ignores ticks when not importing, and resets only when not running', () => {
    expect(importReducer(IDLE, { type: 'tick' })).toBe(IDLE);
    const running = importReducer(IDLE, { type: 'start', ids: ['a', 'b'] });
    expect(importReducer(running, { type: 'reset' })).toBe(running);
    const done = importReducer(running, { type: 'tick' });
    expect(importReducer(importReducer(done, { type: 'tick' }), { type: 'reset' })).toEqual(IDLE);
  });
  it('rounds the percentage', () => {
    const state = importReducer(importReducer(IDLE, { type: 'start', ids: ['a', 'b', 'c'] }), {
      type: 'tick',
    });
    expect(importPercent(state)).toBe(33);
  });
});

describe('canStartImport', () => {
  it('needs a selection and no import running', () => {
    expect(canStartImport(IDLE, 0)).toBe(false);
    expect(canStartImport(IDLE, 2)).toBe(true);
    expect(canStartImport(importReducer(IDLE, { type: 'start', ids: ['a'] }), 2)).toBe(false);
    expect(canStartImport({ status: 'done', ids: ['a'] }, 1)).toBe(true);
  });
});
