import type { TeamRecord } from "../domain/people/teams";

export function teamView({ team, isMember }: TeamRecord) {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    allow_auto_assign: team.allowAutoAssign,
    account_id: team.accountId,
    is_member: isMember,
  };
}
