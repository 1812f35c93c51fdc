import { DEFAULT_SETTINGS, FESTIVAL_WEIGHT_MESSAGE } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { rangeHint, toFormValues, validateSettingsForm } from './settings-form.js';

describe('settings form', () => {
  it('round-trips the stored settings', () => {
    const values = toFormValues(DEFAULT_SETTINGS);
    expect(values.numbers.festival_weight).toBe('12');
    expect(validateSettingsForm(values)).toEqual({ ok: true, value: DEFAULT_SETTINGS });
  });

  it('blocks a festival weight below the party weight', () => {
    const values = toFormValues({ ...DEFAULT_SETTINGS, party_weight: 5, festival_weight: 4 });
    expect(validateSettingsForm(values)).toEqual({ ok: false, message: FESTIVAL_WEIGHT_MESSAGE });
  });

  it('accepts equal weights', () => {
    const values = toFormValues({ ...DEFAULT_SETTINGS, party_weight: 7, festival_weight: 7 });
    expect(validateSettingsForm(values).ok).toBe(true);
  });

  it('reads decimals and refuses empty or unreadable numbers', () => {
    const values = toFormValues(DEFAULT_SETTINGS);
    values.numbers.download_priority_threshold = ' 62.5 ';
    const result = validateSettingsForm(values);
    expect(result.ok && result.value.download_priority_threshold).toBe(62.5);
    values.numbers.party_weight = '';
    expect(validateSettingsForm(values)).toEqual({ ok: false, message: 'Party weight must be a number' });
    values.numbers.party_weight = 'abc';
    expect(validateSettingsForm(values).ok).toBe(false);
  });

  it('leaves ranges to the inputs and the server', () => {
    const values = toFormValues(DEFAULT_SETTINGS);
    values.numbers.minimum_plays_to_download = '80';
    expect(validateSettingsForm(values).ok).toBe(true);
  });

  it('writes the range and default', () => {
    expect(rangeHint('festival_weight')).toBe('Range 1-100, default 12');
    expect(rangeHint('download_priority_threshold')).toBe('Range 0-1000, default 50');
  });
});
