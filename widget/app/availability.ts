/**
 * Online or away (docs/widget.md): inside the inbox's working hours when it keeps them, otherwise
 * whether an agent is online. Time-zone maths uses the page's `utcOffset` (computed when it was served),
 * falling back to the IANA `timezone`.
 */
import type { Channel, WorkingHour } from "./globals";
import { state } from "./state";

function offsetMinutes(channel: Channel, now: Date): number {
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(channel.utcOffset ?? "");
  if (match) return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
  try {
    const local = new Date(now.toLocaleString("en-US", { timeZone: channel.timezone }));
    const utc = new Date(now.toLocaleString("en-US", { timeZone: "UTC" }));
    return Math.round((local.getTime() - utc.getTime()) / 60000);
  } catch {
    return 0;
  }
}

export function inWorkingHours(channel: Channel, now = new Date()): boolean {
  const inboxTime = new Date(now.getTime() + offsetMinutes(channel, now) * 60000);
  const day: WorkingHour | undefined = channel.workingHours.find((hours) => hours.day_of_week === inboxTime.getUTCDay());
  if (!day || day.closed_all_day) return false;
  if (day.open_all_day) return true;
  const minute = inboxTime.getUTCHours() * 60 + inboxTime.getUTCMinutes();
  const opens = (day.open_hour ?? 0) * 60 + (day.open_minutes ?? 0);
  const closes = (day.close_hour ?? 0) * 60 + (day.close_minutes ?? 0);
  return minute >= opens && minute < closes;
}

export const isOnline = (channel: Channel) =>
  channel.workingHoursEnabled ? inWorkingHours(channel) : state.agents.some((agent) => agent.availability_status === "online");
