import { z } from "zod";
import { FILTER_TYPES } from "../domain/kernel/enums";
import { EnumParam, JsonObject, ShortText, wrapped } from "./common";

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
