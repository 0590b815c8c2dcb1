import type { AppRecord } from "../domain/settings/integrations";

/** The specification's integration app fields, plus Chatwoot's short_description. */
export function integrationAppView({ app, enabled }: AppRecord) {
  return {
    id: app.id,
    name: app.name,
    short_description: app.short_description,
    description: app.description,
    hook_type: app.hook_type,
    enabled,
    allow_multiple_hooks: app.allow_multiple_hooks,
    // webhooks and dashboard apps live in their own tables, not in hooks
    hooks: [],
  };
}
