import { useEffect, useState } from 'react';

/**
 * `value` once it has held still for `delayMs`: a search box asks the server once the typing
 * pauses, not once per key.
 */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
