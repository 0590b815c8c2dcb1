import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";
import { accountAuth } from "../../http/auth";
import { accountSelfApi } from "./account";
import { agentBotsApi } from "./agent-bots";
import { agentsApi } from "./agents";
import { assignableAgentsApi } from "./assignable-agents";
import { assignmentPoliciesApi, inboxAssignmentPolicyApi } from "./assignment-policies";
import { automationRulesApi } from "./automation-rules";
import { bulkActionsApi } from "./bulk-actions";
import { campaignsApi, inboxCampaignsApi } from "./campaigns";
import { cannedResponsesApi } from "./canned-responses";
import { captainApi } from "./captain";
import { contactMergeApi, contactsApi } from "./contacts";
import { contactNotesApi } from "./contact-notes";
import { conversationsApi } from "./conversations";
import { csatSurveyResponsesApi } from "./csat-survey-responses";
import { customAttributeDefinitionsApi } from "./custom-attribute-definitions";
import { customFiltersApi } from "./custom-filters";
import { macrosApi } from "./macros";
import { dashboardAppsApi } from "./dashboard-apps";
import { portalsApi } from "./help-center";
import { inboxMembersApi } from "./inbox-members";
import { inboxesApi } from "./inboxes";
import { integrationsApi } from "./integrations";
import { labelsApi } from "./labels";
import { agentLiveApi, conversationLiveApi } from "./live";
import { messagesApi } from "./messages";
import { notificationSettingsApi, notificationsApi } from "./notifications";
import { notificationSubscriptionsApi } from "./notification-subscriptions";
import { participantsApi } from "./participants";
import { profileApi } from "./profile";
import { searchApi } from "./search";
import { teamsApi } from "./teams";
import { webhooksApi } from "./webhooks";
import { rateLimited } from "../../http/rate-limit";
import { routeBody } from "../../http/body";

/**
 * /api/v1: the profile, and everything under /accounts/:account_id. Each resource group is one
 * sub-app mounted below `accounts`; all of them run behind accountAuth.
 */
const accountScoped = new Hono<AppEnv>()
  .use("*", accountAuth, rateLimited("account_api"), routeBody)
  .route("/", accountSelfApi)
  .route("/agents", agentsApi)
  .route("/agent_bots", agentBotsApi)
  .route("/inboxes/:inbox_id/assignment_policy", inboxAssignmentPolicyApi)
  .route("/inboxes/:inbox_id/campaigns", inboxCampaignsApi)
  .route("/inboxes", inboxesApi)
  .route("/inbox_members", inboxMembersApi)
  .route("/assignable_agents", assignableAgentsApi)
  .route("/assignment_policies", assignmentPoliciesApi)
  .route("/teams", teamsApi)
  .route("/campaigns", campaignsApi)
  .route("/canned_responses", cannedResponsesApi)
  .route("/labels", labelsApi)
  .route("/custom_attribute_definitions", customAttributeDefinitionsApi)
  .route("/custom_filters", customFiltersApi)
  .route("/macros", macrosApi)
  .route("/webhooks", webhooksApi)
  .route("/automation_rules", automationRulesApi)
  .route("/integrations", integrationsApi)
  .route("/dashboard_apps", dashboardAppsApi)
  .route("/conversations/:conversation_id/messages", messagesApi)
  .route("/conversations/:conversation_id/participants", participantsApi)
  .route("/conversations/:conversation_id", conversationLiveApi)
  .route("/conversations", conversationsApi)
  .route("/portals", portalsApi)
  .route("/contacts/:contact_id/notes", contactNotesApi)
  .route("/contacts", contactsApi)
  .route("/actions/contact_merge", contactMergeApi)
  .route("/bulk_actions", bulkActionsApi)
  .route("/csat_survey_responses", csatSurveyResponsesApi)
  .route("/search", searchApi)
  .route("/notifications", notificationsApi)
  .route("/notification_settings", notificationSettingsApi)
  .route("/captain", captainApi);

export const applicationApi = new Hono<AppEnv>()
  .route("/profile", profileApi)
  .route("/notification_subscriptions", notificationSubscriptionsApi)
  // the agent's live-room socket: authenticated by a ticket in the query, not by a key header
  .route("/live", agentLiveApi)
  .route("/accounts/:account_id", accountScoped);
