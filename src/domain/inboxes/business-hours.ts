/**
 * An inbox's business hours (Chatwoot's `working_hours` and `OutOfOffisable`): with
 * `working_hours_enabled`, each day of the week (0 Sunday … 6 Saturday, in the inbox's `timezone`) is
 * closed all day, open all day, or open from its open time to its close time, both included.
 */
import type { WorkingHour } from "./inboxes";
import type { InboxRow } from "./rows";

type Hours = Pick<InboxRow, "workingHoursEnabled" | "workingHours" | "timezone">;

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The day of the week and the seconds since midnight at `at` (ms) on the wall clock of `timeZone`. */
export function wallClock(timeZone: string, at: number): { day: number; seconds: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" }).formatToParts(at);
  } catch {
    // a zone the runtime does not know (the inbox was saved under another runtime): the clock of UTC
    return wallClock("UTC", at);
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return { day: WEEKDAYS.indexOf(part("weekday")), seconds: Number(part("hour")) * 3600 + Number(part("minute")) * 60 + Number(part("second")) };
}

/** Whether the inbox is closed at `at`: working hours are on and the day's hours (on the inbox's clock) leave it out. */
export function outOfOffice(inbox: Hours, at: number): boolean {
  if (!inbox.workingHoursEnabled) return false;
  const { day, seconds } = wallClock(inbox.timezone, at);
  const today = (inbox.workingHours as unknown as WorkingHour[]).find((d) => d.day_of_week === day);
  if (!today) return false;
  if (today.closed_all_day) return true;
  if (today.open_all_day) return false;
  const opens = (today.open_hour ?? 0) * 3600 + (today.open_minutes ?? 0) * 60;
  const closes = (today.close_hour ?? 0) * 3600 + (today.close_minutes ?? 0) * 60;
  return seconds < opens || seconds > closes;
}

/** When the inbox's current day began (ms), on its clock: "once a day" counts from there. */
export function startOfLocalDay(timeZone: string, at: number): number {
  return at - wallClock(timeZone, at).seconds * 1000 - (at % 1000);
}
