import { ACCOUNT_STATUSES, enumName } from "../domain/kernel/enums";
import { iso } from "./time";
import { type AccountRow } from "../domain/identity/rows";

const enabledFeatures = (account: AccountRow) =>
  Object.fromEntries(Object.entries(account.features).filter(([, on]) => on).map(([name]) => [name, true]));

/** The fields both views open with, in this order. */
const accountIdentity = (account: AccountRow) => ({
  id: account.id,
  name: account.name,
  locale: account.locale,
  domain: account.domain,
  support_email: account.supportEmail,
  status: enumName(ACCOUNT_STATUSES, account.status),
});

/** The account as the Platform API shows it. */
export function platformAccountView(account: AccountRow) {
  return {
    ...accountIdentity(account),
    enabled_features: enabledFeatures(account),
    custom_attributes: account.customAttributes,
    limits: account.limits,
    created_at: iso(account.createdAt),
  };
}

/** The account as its members see it (GET/PATCH /api/v1/accounts/:id). */
export function accountView(account: AccountRow, serviceVersion: string) {
  return {
    ...accountIdentity(account),
    settings: account.settings,
    created_at: iso(account.createdAt),
    ...(Object.keys(account.customAttributes).length > 0 && { custom_attributes: account.customAttributes }),
    features: enabledFeatures(account),
    latest_chatwoot_version: serviceVersion,
  };
}
