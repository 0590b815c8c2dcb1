import { z } from "zod";
import { FILTER_TYPES } from "../domain/kernel/enums";
import { EnumParam, JsonObject, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

const fields = {
  name: ShortText.trim().min(1),
  filter_type: EnumParam(FILTER_TYPES).optional(),
  /** free JSON; Chatwoot's dashboard stores `{payload: [conditions]}` */
  query: JsonObject,
};

/** POST /custom_filters */
export const CustomFilterCreate = wrapped("custom_filter", z.object(fields));

/** PATCH/PUT /custom_filters/:id */
export const CustomFilterUpdate = wrapped("custom_filter", z.object(fields).partial());

/** GET /custom_filters: conversation filters unless told otherwise. */
export const CustomFilterQuery = z.object({ filter_type: EnumParam(FILTER_TYPES).default(0) });

/** A saved filter (src/views/custom-filters.ts); `query` is kept as the client sent it. */
export const CustomFilter = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    filter_type: z.enum(FILTER_TYPES),
    query: z.record(z.string(), z.unknown()),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: "CustomFilter" });
