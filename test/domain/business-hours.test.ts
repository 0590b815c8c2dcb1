/** Business hours on the inbox's clock: the day and time in its time zone, across midnight and a date line. */
import { describe, expect, it } from "vitest";
import { outOfOffice, startOfLocalDay, wallClock } from "../../src/domain/inboxes/business-hours";

/** Monday to Friday 09:00–17:30, weekends closed. */
const week = [0, 1, 2, 3, 4, 5, 6].map((day) =>
  day === 0 || day === 6
    ? { day_of_week: day, closed_all_day: true, open_all_day: false, open_hour: null, open_minutes: null, close_hour: null, close_minutes: null }
    : { day_of_week: day, closed_all_day: false, open_all_day: false, open_hour: 9, open_minutes: 0, close_hour: 17, close_minutes: 30 },
);
const inbox = (timezone: string, enabled = true) => ({ workingHoursEnabled: enabled, workingHours: week as never, timezone });
const at = (iso: string) => Date.parse(iso);

describe("business hours", () => {
  it("reads the day and time on the inbox's clock", () => {
    // Monday 2026-11-30 02:00 UTC is Sunday 18:00 in Los Angeles and Monday 11:00 in Tokyo
    expect(wallClock("America/Los_Angeles", at("2026-11-30T02:00:00Z"))).toEqual({ day: 0, seconds: 18 * 3600 });
    expect(wallClock("Asia/Tokyo", at("2026-11-30T02:00:00Z"))).toEqual({ day: 1, seconds: 11 * 3600 });
  });

  it("is closed or open by the local day, not the UTC one", () => {
    const mondayMorningUtc = at("2026-11-30T02:00:00Z");
    expect(outOfOffice(inbox("America/Los_Angeles"), mondayMorningUtc)).toBe(true); // Sunday there
    expect(outOfOffice(inbox("Asia/Tokyo"), mondayMorningUtc)).toBe(false); // Monday 11:00 there
    expect(outOfOffice(inbox("UTC"), mondayMorningUtc)).toBe(true); // Monday 02:00, before opening
  });

  it("opens at the open time and closes after the close time, both included", () => {
    expect(outOfOffice(inbox("Europe/Berlin"), at("2026-12-01T07:59:59Z"))).toBe(true); // 08:59:59 in Berlin
    expect(outOfOffice(inbox("Europe/Berlin"), at("2026-12-01T08:00:00Z"))).toBe(false); // 09:00:00
    expect(outOfOffice(inbox("Europe/Berlin"), at("2026-12-01T16:30:00Z"))).toBe(false); // 17:30:00
    expect(outOfOffice(inbox("Europe/Berlin"), at("2026-12-01T16:30:01Z"))).toBe(true); // 17:30:01
    // just after local midnight into Saturday: closed all day
    expect(outOfOffice(inbox("Europe/Berlin"), at("2026-12-04T23:00:01Z"))).toBe(true);
  });

  it("is never closed when working hours are off, or on a day the week does not name", () => {
    expect(outOfOffice(inbox("UTC", false), at("2026-11-29T12:00:00Z"))).toBe(false);
    expect(outOfOffice({ workingHoursEnabled: true, workingHours: [] as never, timezone: "UTC" }, at("2026-11-29T12:00:00Z"))).toBe(false);
  });

  it("counts a day from the inbox's midnight", () => {
    const now = at("2026-11-30T02:30:00Z"); // 18:30 on Sunday in Los Angeles (UTC-8)
    expect(new Date(startOfLocalDay("America/Los_Angeles", now)).toISOString()).toBe("2026-11-29T08:00:00.000Z");
    expect(new Date(startOfLocalDay("Asia/Tokyo", now)).toISOString()).toBe("2026-11-29T15:00:00.000Z");
  });
});
