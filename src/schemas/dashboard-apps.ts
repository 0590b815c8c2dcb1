import { z } from "zod";
import { HttpUrl, ShortText, wrapped } from "./common";

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
