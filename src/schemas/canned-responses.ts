import { z } from "zod";
import { LongText, ShortText, wrapped } from "./common";

const fields = {
  short_code: ShortText.trim().min(1),
  // stored as typed (line breaks matter in a reply), but it must say something
  content: LongText.refine((v) => v.trim() !== "", { error: "must not be blank", params: { code: "blank" } }),
};

/** POST /canned_responses */
export const CannedResponseCreate = wrapped("canned_response", z.object(fields));

/** PATCH/PUT /canned_responses/:id */
export const CannedResponseUpdate = wrapped("canned_response", z.object(fields).partial());

/** GET /canned_responses */
export const CannedResponseQuery = z.object({ search: z.string().max(255).optional() });
