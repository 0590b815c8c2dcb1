import { z } from "zod";
import { Bool, ShortText, UserIds, wrapped } from "./common";

const teamFields = {
  name: ShortText.trim().min(1),
  description: z.string().max(20_000).nullish(),
  allow_auto_assign: Bool,
};

/** POST /teams (flat or wrapped in `team`) */
export const TeamCreate = wrapped("team", z.object({ ...teamFields, allow_auto_assign: teamFields.allow_auto_assign.optional() }));

/** PATCH/PUT /teams/:id */
export const TeamUpdate = wrapped("team", z.object(teamFields).partial());

/** PATCH /teams/:id/team_members: the new set, which may be empty. */
export const TeamMembersReplace = z.object({ user_ids: UserIds });

/** POST and DELETE /teams/:id/team_members */
export const TeamMembersChange = z.object({ user_ids: UserIds.pipe(z.array(z.number()).min(1)) });

/** A team (src/views/teams.ts); `is_member` is the caller's membership. */
export const Team = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    allow_auto_assign: z.boolean(),
    account_id: z.number().int(),
    is_member: z.boolean().describe("whether the caller is a member"),
  })
  .meta({ id: "Team" });
