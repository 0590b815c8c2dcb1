/**
 * The introduction of the API reference at /docs: the README's first tour and the table of surfaces and
 * keys of docs/api.md, word for word (the docs test in test/e2e compares them with those files, so they
 * cannot drift).
 */
export const README_TOUR = `\`\`\`sh
KEY=<the platform key npm start printed>
curl -s localhost:8787/api
curl -s -X POST localhost:8787/platform/api/v1/accounts -H "api_access_token: $KEY" \\
     -H 'content-type: application/json' -d '{"name":"Acme"}'
curl -s -X POST localhost:8787/platform/api/v1/users -H "api_access_token: $KEY" \\
     -H 'content-type: application/json' -d '{"name":"Ada","email":"ada@example.com","password":"Passw0rd!"}'
curl -s -X POST localhost:8787/platform/api/v1/accounts/1/account_users -H "api_access_token: $KEY" \\
     -H 'content-type: application/json' -d '{"user_id":1,"role":"administrator"}'
curl -s localhost:8787/api/v1/profile -H "api_access_token: <the user's access_token>"
\`\`\``;

export const API_SURFACES = `| Surface | Key | Reaches |
|---|---|---|
| \`/platform/api/v1\` | platform key | accounts, users, account users and agent bots **that this platform app created** |
| \`/api/v1/profile\`, \`/api/v1/notification_subscriptions\` | user key | the user's own profile and push devices |
| \`/api/v1/accounts/{id}/...\` | user key | the account's resources, by role (administrator, agent) |
| same, bot routes only | agent bot key | creating and updating conversations, toggling status and priority, custom attributes, messages, assignments |
| \`/public/api/v1\` | none | addressed by inbox identifier and contact source id |
| \`/auth/confirmation\` | none: the mailed token | confirming a user's new e-mail address |
| \`/auth/sign_in\`, \`/auth/password\` | none: the password, the mailed reset token | signing in as Chatwoot's apps do, resetting a password |
| \`/api/v1/profile\`, \`/api/v1/notification_subscriptions\`, \`/api/v1/accounts/...\`, \`/api/v2/...\`, \`/auth/validate_token\`, \`/auth/sign_out\` | a sign-in's \`access-token\` + \`client\` + \`uid\` | what the user's key reaches, as that user |
| \`/cable\` | none on the socket: each subscription sends the user's \`pubsub_token\`, or a visitor's (a contact inbox's) \`pubsub_token\` on the widget's \`RoomChannel\` | the live account feed (ActionCable), for a member of the account; for a visitor, its own conversations' public events (docs/widget.md) |
| \`/mcp\` | user key, sign-in token or agent bot key, as \`Authorization: Bearer\` | the MCP tools: what the key reaches on the account API (docs/mcp.md) |

The key goes in the \`api_access_token\` header; \`Api-Access-Token\` (as n8n and other clients send it)
and \`Authorization: Bearer <key>\` work too. Keys are
192-bit random strings, found by their SHA-256 digest (never compared as plain text).`;

export const INTRODUCTION = [
  "edgedesk speaks Chatwoot's API: its routes, parameters, envelopes and enums, with one error body, rate limits with headers and `Idempotency-Key` on creates. This reference is generated from the same zod schemas that validate each request.",
  "## A first tour",
  "`npm start` serves edgedesk on localhost:8787 and prints a platform key.",
  README_TOUR,
  "## Surfaces and keys",
  API_SURFACES,
].join("\n\n");
