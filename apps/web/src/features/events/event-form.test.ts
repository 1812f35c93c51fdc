import { describe, expect, it } from 'vitest';
import { type EventFormValues, timeZoneOptions, toEventCreate, validateEventForm } from './event-form';

const valid: EventFormValues = {
  name: ' Summer Swing ',
  startDate: '2026-07-10',
  endDate: '2026-07-12',
  location: '  ',
  isFestival: true,
  timezone: 'Europe/Berlin',
};

describe('validateEventForm', () => {
  it('accepts a complete event, also a one-day one', () => {
    expect(validateEventForm(valid)).toEqual({});
    expect(validateEventForm({ ...valid, endDate: valid.startDate })).toEqual({});
  });
  it('requires a name and both dates', () => {
    expect(validateEventForm({ ...valid, name: '   ', startDate: '', endDate: '' })).toEqual({
      name: 'Event name is required',
      startDate: 'Start date is required',
      endDate: 'End date is required',
    });
  });
  it('refuses an end before the start', () => {
    expect(validateEventForm({ ...valid, endDate: '2026-07-09' }).endDate).toBe(
      'End date must not be before the start date',
    );
  });
});

describe('toEventCreate', () => {
  it('trims, and sends an empty location as null', () => {
    expect(toEventCreate(valid)).toEqual({
      event_name: 'Summer Swing',
      start_date: '2026-07-10',
      end_date: '2026-07-12',
      location: null,
      is_festival: true,
      timezone: 'Europe/Berlin',
    });
  });
});

describe('timeZoneOptions', () => {
  it('lists IANA zones, sorted, always with the current one', () => {
    const zones = timeZoneOptions('Mars/Olympus_Mons');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('Mars/Olympus_Mons');
    expect(zones).toEqual([...zones].sort((a, b) => a.localeCompare(b)));
  });
});
