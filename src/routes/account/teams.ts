import { Hono } from "hono";
import { addTeamMembers, createTeam, deleteTeam, getTeam, listTeamMembers, listTeams, removeTeamMembers, replaceTeamMembers, updateTeam } from "../../domain/people/teams";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { Team, TeamCreate, TeamMembersChange, TeamMembersReplace, TeamUpdate } from "../../schemas/teams";
import { agentsView } from "../../views/agents";
import { teamView } from "../../views/teams";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Agent } from "../../schemas/agents";
import { Empty } from "../../schemas/responses";
import { onlineInAccount } from "./online";

/** /api/v1/accounts/:account_id/teams and their team_members */
export const teamsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List teams", response: Team.array() }), async (c) => c.json((await listTeams(accountScope(c))).map(teamView)))
  .post("/", doc({ summary: "Create a team", response: Team }), requireAdministrator, idempotent(), validate("json", TeamCreate), async (c) => {
    const body = c.req.valid("json");
    const team = await createTeam(accountScope(c), {
      name: body.name,
      description: body.description,
      allowAutoAssign: body.allow_auto_assign,
    });
    return c.json(teamView(team));
  })
  .get("/:id/team_members", doc({ summary: "List a team's members", response: Agent.array() }), validate("param", IdParam), async (c) =>
    c.json(agentsView(await listTeamMembers(accountScope(c), c.req.valid("param").id), c.var.account.id, await onlineInAccount(c))),
  )
  .post("/:id/team_members", doc({ summary: "Add members to a team", response: Agent.array().describe("the agents added") }), requireAdministrator, validate("param", IdParam), validate("json", TeamMembersChange), async (c) => {
    const added = await addTeamMembers(accountScope(c), c.req.valid("param").id, c.req.valid("json").user_ids);
    return c.json(agentsView(added, c.var.account.id, await onlineInAccount(c)));
  })
  .patch("/:id/team_members", doc({ summary: "Replace a team's members", response: Agent.array() }), requireAdministrator, validate("param", IdParam), validate("json", TeamMembersReplace), async (c) => {
    const members = await replaceTeamMembers(accountScope(c), c.req.valid("param").id, c.req.valid("json").user_ids);
    return c.json(agentsView(members, c.var.account.id, await onlineInAccount(c)));
  })
  .delete("/:id/team_members", doc({ summary: "Remove members from a team", response: Empty }), requireAdministrator, validate("param", IdParam), validate("json", TeamMembersChange), async (c) => {
    await removeTeamMembers(accountScope(c), c.req.valid("param").id, c.req.valid("json").user_ids);
    return c.json({});
  })
  .get("/:id", doc({ summary: "Show a team", response: Team }), validate("param", IdParam), async (c) => c.json(teamView(await getTeam(accountScope(c), c.req.valid("param").id))))
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a team", response: Team }), requireAdministrator, validate("param", IdParam), validate("json", TeamUpdate), async (c) => {
    const body = c.req.valid("json");
    const team = await updateTeam(accountScope(c), c.req.valid("param").id, {
      name: body.name,
      description: body.description,
      allowAutoAssign: body.allow_auto_assign,
    });
    return c.json(teamView(team));
  })
  .delete("/:id", doc({ summary: "Delete a team", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteTeam(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
