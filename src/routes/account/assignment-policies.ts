/**
 * /assignment_policies (with /assignment_policies/:id/inboxes) and /inboxes/:inbox_id/assignment_policy:
 * Chatwoot's assignment policies and the links from inboxes to them, for administrators. What the
 * policies do is auto-assignment's (src/domain/assignment/auto-assignment.ts).
 */
import { Hono } from "hono";
import {
  type AssignmentPolicyInput,
  createAssignmentPolicy,
  deleteAssignmentPolicy,
  inboxPolicy,
  linkInboxToPolicy,
  listAssignmentPolicies,
  listPolicyInboxes,
  showAssignmentPolicy,
  unlinkInbox,
  updateAssignmentPolicy,
} from "../../domain/assignment/policies";
import { ASSIGNMENT_ORDERS, CONVERSATION_PRIORITY_ORDERS } from "../../domain/assignment/rows";
import type { AppEnv } from "../../http/app-env";
import { requireAdministrator } from "../../http/auth";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import {
  AssignmentPolicy,
  AssignmentPolicyCreate,
  AssignmentPolicyUpdate,
  InboxAssignmentPolicy,
  InboxIdParam,
  InboxPolicyLink,
  PolicyInboxLink,
  PolicyInboxParam,
  PolicyInboxes,
} from "../../schemas/assignment-policies";
import { IdParam } from "../../schemas/common";
import { Empty } from "../../schemas/responses";
import { assignmentPolicyView, inboxAssignmentPolicyView } from "../../views/assignment-policies";
import { inboxAnswer } from "./inboxes";

type PolicyBody = {
  name?: string;
  description?: string | null;
  assignment_order?: (typeof ASSIGNMENT_ORDERS)[number];
  conversation_priority?: (typeof CONVERSATION_PRIORITY_ORDERS)[number];
  fair_distribution_limit?: number;
  fair_distribution_window?: number;
  enabled?: boolean;
};

const policyInput = (body: PolicyBody): AssignmentPolicyInput => ({
  name: body.name,
  description: body.description,
  assignmentOrder: body.assignment_order === undefined ? undefined : ASSIGNMENT_ORDERS.indexOf(body.assignment_order),
  conversationPriority: body.conversation_priority === undefined ? undefined : CONVERSATION_PRIORITY_ORDERS.indexOf(body.conversation_priority),
  fairDistributionLimit: body.fair_distribution_limit,
  fairDistributionWindow: body.fair_distribution_window,
  enabled: body.enabled,
});

/** Drops the fields a body left out, so that an update changes only what it names. */
const given = <T extends Record<string, unknown>>(input: T) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;

export const assignmentPoliciesApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "List assignment policies", response: AssignmentPolicy.array() }), async (c) =>
    c.json((await listAssignmentPolicies(accountScope(c))).map(assignmentPolicyView)),
  )
  .post("/", doc({ summary: "Create an assignment policy", response: AssignmentPolicy }), idempotent(), validate("json", AssignmentPolicyCreate), async (c) => {
    const body = c.req.valid("json");
    return c.json(assignmentPolicyView(await createAssignmentPolicy(accountScope(c), { ...given(policyInput(body)), name: body.name })));
  })
  .get("/:id", doc({ summary: "Show an assignment policy", response: AssignmentPolicy }), validate("param", IdParam), async (c) =>
    c.json(assignmentPolicyView(await showAssignmentPolicy(accountScope(c), c.req.valid("param").id))),
  )
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an assignment policy", response: AssignmentPolicy }), validate("param", IdParam), validate("json", AssignmentPolicyUpdate), async (c) =>
    c.json(assignmentPolicyView(await updateAssignmentPolicy(accountScope(c), c.req.valid("param").id, given(policyInput(c.req.valid("json")))))),
  )
  .delete("/:id", doc({ summary: "Delete an assignment policy (its inboxes follow none)", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteAssignmentPolicy(accountScope(c), c.req.valid("param").id);
    return c.json({});
  })
  .get("/:id/inboxes", doc({ summary: "List the inboxes that follow an assignment policy", response: PolicyInboxes }), validate("param", IdParam), async (c) => {
    const records = await listPolicyInboxes(accountScope(c), c.req.valid("param").id);
    return c.json({ inboxes: records.map((r) => inboxAnswer(c, r)) });
  })
  .post("/:id/inboxes", doc({ summary: "Make an inbox follow an assignment policy", response: InboxAssignmentPolicy }), validate("param", IdParam), validate("json", PolicyInboxLink), async (c) => {
    const { link } = await linkInboxToPolicy(accountScope(c), c.req.valid("param").id, c.req.valid("json").inbox_id);
    return c.json(inboxAssignmentPolicyView(link));
  })
  .delete("/:id/inboxes/:inbox_id", doc({ summary: "Make an inbox follow no assignment policy", response: Empty }), validate("param", PolicyInboxParam), async (c) => {
    const { id, inbox_id } = c.req.valid("param");
    await unlinkInbox(accountScope(c), inbox_id, id);
    return c.json({});
  });

/** /inboxes/:inbox_id/assignment_policy: the same links, seen from the inbox. */
export const inboxAssignmentPolicyApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "Show the assignment policy an inbox follows", response: AssignmentPolicy }), validate("param", InboxIdParam), async (c) =>
    c.json(assignmentPolicyView(await inboxPolicy(accountScope(c), c.req.valid("param").inbox_id))),
  )
  .post("/", doc({ summary: "Make the inbox follow an assignment policy", response: AssignmentPolicy }), validate("param", InboxIdParam), validate("json", InboxPolicyLink), async (c) => {
    const scope = accountScope(c);
    const inboxId = c.req.valid("param").inbox_id;
    await linkInboxToPolicy(scope, c.req.valid("json").assignment_policy_id, inboxId);
    return c.json(assignmentPolicyView(await inboxPolicy(scope, inboxId)));
  })
  .delete("/", doc({ summary: "Make the inbox follow no assignment policy", response: Empty }), validate("param", InboxIdParam), async (c) => {
    await unlinkInbox(accountScope(c), c.req.valid("param").inbox_id);
    return c.json({});
  });
