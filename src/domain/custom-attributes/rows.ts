/** The rows the custom attributes aggregate owns: the definitions (values live on their contact or conversation). */
import { schema } from "../../db/client";

export type AttributeDefinition = typeof schema.customAttributeDefinitions.$inferSelect;
