/** Chatwoot renders most times as Unix seconds (0 when missing) and some as ISO strings. */
export const unixSeconds = (ms: number | null | undefined): number => (ms ? Math.floor(ms / 1000) : 0);

export const iso = (ms: number | null | undefined): string | null => (ms ? new Date(ms).toISOString() : null);
