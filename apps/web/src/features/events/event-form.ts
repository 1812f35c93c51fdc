import type { EventCreate } from '@wcs/contract';

export interface EventFormValues {
  name: string;
  startDate: string;
  endDate: string;
  location: string;
  isFestival: boolean;
  timezone: string;
}

export type EventFormErrors = Partial<Record<'name' | 'startDate' | 'endDate' | 'timezone', string>>;

/** The browser's IANA time zone, the form's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every IANA time zone the browser knows, with `current` in it even if the list lacks it. */
export function timeZoneOptions(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set([...zones, 'UTC', current]);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** The form's rules: a name, both dates, and the end not before the start. */
export function validateEventForm(values: EventFormValues): EventFormErrors {
  const errors: EventFormErrors = {};
  if (values.name.trim() === '') errors.name = 'Event name is required';
  else if (values.name.trim().length > 200) errors.name = 'Event name must be at most 200 characters';
  if (!values.startDate) errors.startDate = 'Start date is required';
  if (!values.endDate) errors.endDate = 'End date is required';
  if (values.startDate && values.endDate && values.endDate < values.startDate) {
    errors.endDate = 'End date must not be before the start date';
  }
  if (!values.timezone) errors.timezone = 'Time zone is required';
  return errors;
}

/** The POST /events/ body from valid form values. */
export function toEventCreate(values: EventFormValues): EventCreate {
  const location = values.location.trim();
  return {
    event_name: values.name.trim(),
    start_date: values.startDate,
    end_date: values.endDate,
    location: location === '' ? null : location,
    is_festival: values.isFestival,
    timezone: values.timezone,
  };
}
