import { z } from "zod";
import { LongText, ShortText, wrapped } from "./common";

const fields = {
  short_code: ShortText.trim().min(1),
  content: LongText.trim().min(1),
};

/** POST /canned_responses */
export const CannedResponseCreate = wrapped("canned_response", z.object(fields));

/** PATCH/PUT /canned_responses/:id */
export const CannedResponseUpdate = wrapped("canned_response", z.object(fields).partial());

/** GET /canned_responses */
export const CannedResponseQuery = z.object({ search: z.string().max(255).optional() });
