import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceUpdate, applyUpdate, dismissUpdate, isUpdateWaiting, subscribeToUpdate } from './app-update';

afterEach(() => dismissUpdate());

describe('app update', () => {
  it('tells subscribers when a new version waits and when the prompt is dismissed', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToUpdate(listener);
    expect(isUpdateWaiting()).toBe(false);
    announceUpdate(async () => {});
    expect(isUpdateWaiting()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    dismissUpdate();
    expect(isUpdateWaiting()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    announceUpdate(async () => {});
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('applies the waiting version once', async () => {
    const apply = vi.fn(async () => {});
    announceUpdate(apply);
    await applyUpdate();
    expect(apply).toHaveBeenCalledTimes(1);
    expect(isUpdateWaiting()).toBe(false);
  });
});
