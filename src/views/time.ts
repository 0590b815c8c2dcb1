/**
 * Chatwoot renders most times as Unix seconds and some as ISO strings. A time that was never set is
 * null, not 0: 0 reads as 1970 and sorts before every real time (a contact that was never active shown
 * with `last_activity_at: 0` looked out of place in a list sorted by that key).
 */
export function unixSeconds(ms: number): number;
export function unixSeconds(ms: number | null | undefined): number | null;
export function unixSeconds(ms: number | null | undefined): number | null {
  return ms === null || ms === undefined ? null : Math.floor(ms / 1000);
}

export const iso = (ms: number | null | undefined): string | null => (ms ? new Date(ms).toISOString() : null);
