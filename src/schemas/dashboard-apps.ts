import { z } from "zod";
import { HttpUrl, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

/** Chatwoot's content schema: frames the dashboard shows beside a conversation. */
const Frame = z.object({ type: z.literal("frame"), url: HttpUrl });

const fields = {
  title: ShortText.trim().min(1),
  content: z.array(Frame).min(1).max(10),
};

/** POST /dashboard_apps */
export const DashboardAppCreate = wrapped("dashboard_app", z.object(fields));

/** PATCH/PUT /dashboard_apps/:id */
export const DashboardAppUpdate = wrapped("dashboard_app", z.object(fields).partial());

/** A dashboard app (src/views/dashboard-apps.ts); Chatwoot passes the Time through, so created_at is ISO. */
export const DashboardApp = z
  .looseObject({
    id: z.number().int(),
    title: z.string(),
    content: z.array(z.looseObject({ type: z.literal("frame"), url: z.string() })),
    created_at: isoTime,
  })
  .meta({ id: "DashboardApp" });
