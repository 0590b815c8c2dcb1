import { z } from "zod";
import { LongText, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

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

/** A canned response (src/views/canned-responses.ts): Chatwoot renders the raw record, so times are ISO. */
export const CannedResponse = z
  .looseObject({
    id: z.number().int(),
    account_id: z.number().int(),
    short_code: z.string(),
    content: z.string(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: "CannedResponse" });
