import { z } from "zod";
import { UnixSeconds } from "./conversations";

/** GET /api/v2/accounts/:account_id/reports/summary (account type only). */
export const SummaryQuery = z
  .object({
    type: z.literal("account").optional(),
    since: UnixSeconds.optional(),
    until: UnixSeconds.optional(),
  })
  .refine((q) => q.since === undefined || q.until === undefined || q.since < q.until, { path: ["until"], message: "must be after since", params: { code: "invalid_range" } });
