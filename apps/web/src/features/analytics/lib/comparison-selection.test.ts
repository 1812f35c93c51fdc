import { describe, expect, it } from 'vitest';
import {
  activeIds,
  canCompare,
  compareButtonLabel,
  EMPTY_SELECTION,
  isOptionDisabled,
  switchType,
  toggleId,
  toggleInSelection,
} from './comparison-selection.js';

describe('toggleId', () => {
  it('adds and removes ids in order', () => {
    expect(toggleId([], 4)).toEqual([4]);
    expect(toggleId([4], 9)).toEqual([4, 9]);
    expect(toggleId([4, 9], 4)).toEqual([9]);
  });
  it('ignores a sixth id but still removes one of the five', () => {
    const five = [1, 2, 3, 4, 5];
    expect(toggleId(five, 6)).toEqual(five);
    expect(toggleId(five, 3)).toEqual([1, 2, 4, 5]);
  });
});

describe('isOptionDisabled', () => {
  it('disables the other boxes at five only', () => {
    expect(isOptionDisabled([1, 2, 3, 4], 6)).toBe(false);
    expect(isOptionDisabled([1, 2, 3, 4, 5], 6)).toBe(true);
    expect(isOptionDisabled([1, 2, 3, 4, 5], 5)).toBe(false);
  });
});

describe('canCompare and the button', () => {
  it('needs 2 to 5', () => {
    expect(canCompare([])).toBe(false);
    expect(canCompare([1])).toBe(false);
    expect(canCompare([1, 2])).toBe(true);
    expect(canCompare([1, 2, 3, 4, 5])).toBe(true);
    expect(canCompare([1, 2, 3, 4, 5, 6])).toBe(false);
  });
  it('names the count and the type', () => {
    expect(compareButtonLabel(0, 'event')).toBe('Select at least 2 events/socials');
    expect(compareButtonLabel(1, 'social')).toBe('Select at least 2 events/socials');
    expect(compareButtonLabel(2, 'event')).toBe('Compare 2 Events');
    expect(compareButtonLabel(5, 'social')).toBe('Compare 5 Socials');
  });
});

describe('switchType and the event filter', () => {
  it('clears the selection when the type changes', () => {
    const events = { type: 'event' as const, eventId: null, ids: [1, 2, 3] };
    expect(switchType(events, 'social', 7)).toEqual({ type: 'social', eventId: 7, ids: [] });
    expect(switchType(events, 'event', 7)).toBe(events);
    expect(switchType({ type: 'social', eventId: 7, ids: [10, 11] }, 'event', 7)).toEqual(EMPTY_SELECTION);
  });
  it('forgets socials of another event', () => {
    const socials = toggleInSelection(
      toggleInSelection(switchType(EMPTY_SELECTION, 'social', 7), 10, 7),
      11,
      7,
    );
    expect(activeIds(socials, 7)).toEqual([10, 11]);
    expect(activeIds(socials, 8)).toEqual([]);
    expect(toggleInSelection(socials, 20, 8)).toEqual({ type: 'social', eventId: 8, ids: [20] });
  });
  it('keeps events whatever the event filter', () => {
    const events = toggleInSelection(toggleInSelection(EMPTY_SELECTION, 1, null), 2, 5);
    expect(activeIds(events, 9)).toEqual([1, 2]);
  });
});
