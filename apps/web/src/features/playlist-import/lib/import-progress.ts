/**
 * The simulated import (nothing is sent to the server): idle, then importing one playlist per
 * 500 ms with a percentage, then done.
 */

/** How long the simulation spends on each playlist. */
export const IMPORT_STEP_MS = 500;

export type ImportState =
  | { status: 'idle' }
  | { status: 'importing'; ids: readonly string[]; completed: number }
  | { status: 'done'; ids: readonly string[] };

export type ImportAction = { type: 'start'; ids: readonly string[] } | { type: 'tick' } | { type: 'reset' };

export const IDLE: ImportState = { status: 'idle' };

export function importReducer(state: ImportState, action: ImportAction): ImportState {
  switch (action.type) {
    case 'start':
      // Nothing to import, or already running: Start Import is disabled then.
      if (action.ids.length === 0 || state.status === 'importing') return state;
      return { status: 'importing', ids: [...action.ids], completed: 0 };
    case 'tick': {
      if (state.status !== 'importing') return state;
      const completed = state.completed + 1;
      return completed >= state.ids.length ? { status: 'done', ids: state.ids } : { ...state, completed };
    }
    case 'reset':
      return state.status === 'importing' ? state : IDLE;
  }
}

/** Whole percent done: 0 while idle, 100 once done. */
export function importPercent(state: ImportState): number {
  if (state.status === 'idle') return 0;
  if (state.status === 'done') return 100;
  return Math.round((state.completed / state.ids.length) * 100);
}

export function canStartImport(state: ImportState, selectedCount: number): boolean {
  return state.status !== 'importing' && selectedCount > 0;
}
