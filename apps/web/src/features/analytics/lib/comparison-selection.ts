import { COMPARISON } from '@wcs/contract';

/**
 * The selection rules of the Event/Social Comparison Tool: 2 to 5 events or socials; once 5 are
 * chosen the other boxes are disabled; switching between events and socials starts again.
 */

export type ComparisonType = 'event' | 'social';

/** What the user has ticked: the socials of one event, or events. */
export interface ComparisonSelection {
  type: ComparisonType;
  /** The event whose socials are ticked (type social); null for events. */
  eventId: number | null;
  ids: readonly number[];
}

export const EMPTY_SELECTION: ComparisonSelection = { type: 'event', eventId: null, ids: [] };

/** Ticks or unticks one id; a sixth tick is ignored. */
export function toggleId(ids: readonly number[], id: number): number[] {
  if (ids.includes(id)) return ids.filter((existing) => existing !== id);
  if (ids.length >= COMPARISON.max) return [...ids];
  return [...ids, id];
}

/** A box that is not ticked is disabled once the maximum is reached. */
export function isOptionDisabled(ids: readonly number[], id: number): boolean {
  return !ids.includes(id) && ids.length >= COMPARISON.max;
}

export function canCompare(ids: readonly number[]): boolean {
  return ids.length >= COMPARISON.min && ids.length <= COMPARISON.max;
}

export function compareButtonLabel(count: number, type: ComparisonType): string {
  if (count < COMPARISON.min) return `Select at least ${COMPARISON.min} events/socials`;
  return `Compare ${count} ${type === 'event' ? 'Events' : 'Socials'}`;
}

/** A new comparison type clears the selection. */
export function switchType(
  selection: ComparisonSelection,
  type: ComparisonType,
  eventId: number | null,
): ComparisonSelection {
  if (selection.type === type) return selection;
  return { type, eventId: type === 'social' ? eventId : null, ids: [] };
}

/**
 * The ids that count for the screen as it is now: socials ticked under another event no longer
 * count once the event filter changes.
 */
export function activeIds(selection: ComparisonSelection, currentEventId: number | null): readonly number[] {
  if (selection.type === 'social' && selection.eventId !== currentEventId) return [];
  return selection.ids;
}

/** Ticks or unticks one id under the current event filter. */
export function toggleInSelection(
  selection: ComparisonSelection,
  id: number,
  currentEventId: number | null,
): ComparisonSelection {
  const ids = activeIds(selection, currentEventId);
  return {
    type: selection.type,
    eventId: selection.type === 'social' ? currentEventId : null,
    ids: toggleId(ids, id),
  };
}
