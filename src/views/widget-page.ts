/**
 * The website widget's configuration as Chatwoot's widget reads it: `chatwootWebChannel` (the `/widget`
 * page's globals, camel-cased) and `website_channel_config` (POST /api/v1/widget/config, snake-cased),
 * `globalConfig`, and the page's HTML shell. The widget app (widget/, built into /packs/) reads the
 * globals from a JSON script element, since the page's policy runs no inline script.
 */
import { REPLY_TIMES, WIDGET_FEATURES, enumName } from "../domain/kernel/enums";
import type { Website } from "../domain/widget/website";
import type { ContactChain } from "../domain/widget/chain";

/** The installation's name on the page and in `globalConfig` (Chatwoot's INSTALLATION_NAME). */
export const INSTALLATION_NAME = "edgedesk";

/** The languages the widget may switch to with `setLocale` (Chatwoot's enabled LANGUAGES_CONFIG entries). */
export const WIDGET_LANGUAGES = [
  ["English", "en"],
  ["Dutch", "nl"],
  ["French", "fr"],
  ["German", "de"],
  ["Italian", "it"],
  ["Portuguese", "pt"],
  ["Russian", "ru"],
  ["Spanish", "es"],
  ["Malayalam", "ml"],
  ["Catalan", "ca"],
  ["Greek", "el"],
  ["Portuguese, Brazilian", "pt_BR"],
  ["Romanian", "ro"],
  ["Tamil", "ta"],
  ["Persian", "fa"],
  ["Traditional Chinese", "zh_TW"],
].map(([name, code]) => ({ name: `${name} (${code})`, iso_639_1_code: code }));

const featureNames = (bits: number) => WIDGET_FEATURES.filter((_, i) => (bits & (1 << i)) !== 0);

/** Whether the inbox lets the visitor end a conversation (toggle_status). */
export const endConversationEnabled = (website: Website) => featureNames(website.widget.featureFlags).includes("end_conversation");

/** "+05:30": the inbox time zone's offset from UTC now (Chatwoot computes it when the page renders). */
export function utcOffset(timeZone: string, at = Date.now()): string {
  try {
    const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";
    const match = /([+-]\d{2}):?(\d{2})/.exec(name);
    return match ? `${match[1]}:${match[2]}` : "+00:00";
  } catch {
    return "+00:00";
  }
}

const portalView = (portal: Website["portal"]) =>
  portal && {
    id: portal.id,
    name: portal.name,
    slug: portal.slug,
    color: portal.color,
    config: portal.config,
    custom_domain: portal.customDomain,
    header_text: portal.headerText,
    homepage_link: portal.homepageLink,
    page_title: portal.pageTitle,
    archived: portal.archived,
  };

/** The fields both configurations share, by their snake-case names. */
function channelFields(website: Website) {
  const { inbox, widget, account } = website;
  return {
    allow_messages_after_resolved: inbox.allowMessagesAfterResolved,
    avatar_url: inbox.avatarUrl ?? "",
    csat_survey_enabled: inbox.csatSurveyEnabled,
    disable_branding: account.features.disable_branding === true,
    enabled_features: featureNames(widget.featureFlags),
    enabled_languages: WIDGET_LANGUAGES,
    locale: account.locale,
    out_of_office_message: inbox.outOfOfficeMessage,
    portal: portalView(website.portal),
    pre_chat_form_enabled: widget.preChatFormEnabled,
    pre_chat_form_options: widget.preChatFormOptions,
    reply_time: enumName(REPLY_TIMES, widget.replyTime) ?? REPLY_TIMES[0],
    timezone: inbox.timezone,
    website_name: inbox.name,
    website_token: inbox.identifier,
    welcome_tagline: widget.welcomeTagline,
    welcome_title: widget.welcomeTitle,
    widget_color: widget.widgetColor,
    working_hours: inbox.workingHours,
    working_hours_enabled: inbox.workingHoursEnabled,
  };
}

/** window.chatwootWebChannel, field for field as Chatwoot's page defines it. */
export function webChannelView(website: Website) {
  const f = channelFields(website);
  return {
    avatarUrl: f.avatar_url,
    hasAConnectedAgentBot: website.agentBotName ?? "",
    locale: f.locale,
    websiteName: f.website_name,
    websiteToken: f.website_token,
    welcomeTagline: f.welcome_tagline,
    welcomeTitle: f.welcome_title,
    widgetColor: f.widget_color,
    portal: f.portal,
    enabledFeatures: f.enabled_features,
    enabledLanguages: f.enabled_languages,
    replyTime: f.reply_time,
    preChatFormEnabled: f.pre_chat_form_enabled,
    preChatFormOptions: f.pre_chat_form_options,
    workingHoursEnabled: f.working_hours_enabled,
    csatSurveyEnabled: f.csat_survey_enabled,
    workingHours: f.working_hours,
    outOfOfficeMessage: f.out_of_office_message,
    utcOffset: utcOffset(website.inbox.timezone),
    timezone: f.timezone,
    allowMessagesAfterResolved: f.allow_messages_after_resolved,
    disableBranding: f.disable_branding,
  };
}

/** Chatwoot's MAXIMUM_FILE_UPLOAD_SIZE in MB as the upload check reads it (src/domain/attachments/uploads.ts). */
function maxUploadMb(setting: string | undefined) {
  const mb = Number(setting);
  return Number.isFinite(mb) && mb > 0 ? mb : 40;
}

/** window.globalConfig: the branding and upload settings the widget reads. */
export function globalConfigView(maxUploadSetting: string | undefined) {
  return {
    LOGO_THUMBNAIL: "",
    BRAND_NAME: INSTALLATION_NAME,
    WIDGET_BRAND_URL: "",
    DIRECT_UPLOADS_ENABLED: "false",
    MAXIMUM_FILE_UPLOAD_SIZE: maxUploadMb(maxUploadSetting),
    INSTALLATION_NAME,
  };
}

/** POST /api/v1/widget/config: the same configuration for a widget that runs outside the page. */
export function widgetConfigView(website: Website, chain: ContactChain, authToken: string, apiHost: string, maxUploadSetting: string | undefined) {
  const { LOGO_THUMBNAIL, BRAND_NAME, WIDGET_BRAND_URL, MAXIMUM_FILE_UPLOAD_SIZE } = globalConfigView(maxUploadSetting);
  return {
    website_channel_config: { ...channelFields(website), api_host: apiHost, auth_token: authToken, utc_off_set: utcOffset(website.inbox.timezone) },
    contact: {
      id: chain.contact.id,
      name: chain.contact.name,
      email: chain.contact.email,
      phone_number: chain.contact.phoneNumber,
      identifier: chain.contact.identifier,
      pubsub_token: chain.contactInbox.pubsubToken,
    },
    global_config: { LOGO_THUMBNAIL, BRAND_NAME, WIDGET_BRAND_URL, MAXIMUM_FILE_UPLOAD_SIZE, INSTALLATION_NAME },
  };
}

/** JSON safe inside a <script> element: `<` never appears raw, so no `</script>` or `<!--` can end it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

const attribute = (text: string) => text.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A locale as the page's `lang` may carry it (`pt_BR` -> `pt-BR`); anything else is the account's. */
export function pageLocale(requested: string | undefined, fallback: string): string {
  const wanted = requested && /^[a-zA-Z]{2,3}([_-][a-zA-Z0-9]{2,8})?$/.test(requested) ? requested : fallback;
  return wanted.replace("_", "-");
}

/** The page's HTML shell: the four globals as JSON, the widget app's script and style from /packs/. */
export function widgetPageHtml(input: { locale: string; webChannel: unknown; pubsubToken: string; authToken: string; globalConfig: unknown }) {
  const globals = { chatwootWebChannel: input.webChannel, chatwootPubsubToken: input.pubsubToken, authToken: input.authToken, globalConfig: input.globalConfig };
  return `<!doctype html><html lang="${attribute(input.locale)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
<title>${INSTALLATION_NAME}</title>
<link rel="stylesheet" href="/packs/css/widget.css">
<script id="widget-globals" type="application/json">${scriptJson(globals)}</script>
<script type="module" src="/packs/js/widget.js"></script>
</head><body><div id="app"></div></body></html>`;
}
