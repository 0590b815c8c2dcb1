/**
 * Client numbers that become times (filter and rule conditions): checked against a range before any
 * arithmetic, so that no value can make an invalid Date (`toISOString` throws a RangeError) or a bound
 * past what SQLite compares sensibly. Out of range is a 422 `out_of_range` on the value's path.
 */

export const DAY_MS = 86_400_000;

/** The furthest `days_before` reaches back: a century. */
export const MAX_DAYS_BEFORE = 36_500;

/** ECMAScript's time range: a Date holds at most 8.64e15 ms either side of 1970. */
const MAX_TIME_MS = 8.64e15;

/** A whole number of days from 0 to MAX_DAYS_BEFORE, from a number or its text; null otherwise. */
export function dayCount(value: unknown): number | null {
  const days = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isInteger(days) && days >= 0 && days <= MAX_DAYS_BEFORE ? days : null;
}

export const DAY_COUNT_MESSAGE = `must be a whole number of days from 0 to ${MAX_DAYS_BEFORE}`;

/** Epoch milliseconds a Date can hold. */
export const isTimeMs = (ms: number) => Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS;

export const TIME_MESSAGE = "must be a time a calendar holds (Unix seconds within ±275,000 years, or a date)";
