/**
 * Type-level proof, checked by `npm run typecheck` (not a vitest file): what the zod schemas of
 * src/schemas produce is assignable to the input types the domain declares for itself, so the domain
 * owns its inputs and the wire may only narrow them.
 */
import type { z } from "zod";
import type { FilterCondition } from "../../src/domain/conversations/filter";
import type { ArticleCreateInput, ArticleInput } from "../../src/domain/help-center/articles";
import type { CategoryCreateInput, CategoryInput } from "../../src/domain/help-center/categories";
import type { PortalCreateInput, PortalInput } from "../../src/domain/help-center/portals";
import type { ConversationFilterBody } from "../../src/schemas/conversations";
import type { ArticleCreate, ArticleUpdate, CategoryCreate, CategoryUpdate, PortalCreate, PortalUpdate } from "../../src/schemas/help-center";

type Assignable<Wire extends Domain, Domain> = [Wire, Domain];

export type InputTypesFollowTheSchemas = [
  Assignable<z.infer<typeof ConversationFilterBody>["payload"][number], FilterCondition>,
  Assignable<z.infer<typeof PortalCreate>, PortalCreateInput>,
  Assignable<z.infer<typeof PortalUpdate>, PortalInput>,
  Assignable<z.infer<typeof CategoryCreate>, CategoryCreateInput>,
  Assignable<z.infer<typeof CategoryUpdate>, CategoryInput>,
  Assignable<z.infer<typeof ArticleCreate>, ArticleCreateInput>,
  Assignable<z.infer<typeof ArticleUpdate>, ArticleInput>,
];
