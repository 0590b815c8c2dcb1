/**
 * The /widget page's globals (docs/widget.md, "The contract between the page and the app"): the JSON in
 * <script id="widget-globals">, since the page's policy runs no inline script. Copied onto window under
 * Chatwoot's names, for scripts and tests that look there.
 */
export type WorkingHour = {
  day_of_week: number;
  open_all_day?: boolean;
  closed_all_day?: boolean;
  open_hour?: number | null;
  open_minutes?: number | null;
  close_hour?: number | null;
  close_minutes?: number | null;
};

export type PreChatField = {
  field_type: "standard" | "contact_attribute" | "conversation_attribute";
  label?: string;
  name: string;
  type?: string;
  placeholder?: string;
  required?: boolean;
  enabled?: boolean;
  values?: string[];
  regex_pattern?: string | null;
  regex_cue?: string | null;
};

export type Channel = {
  avatarUrl: string;
  hasAConnectedAgentBot: string;
  locale: string;
  websiteName: string;
  websiteToken: string;
  welcomeTagline: string | null;
  welcomeTitle: string | null;
  widgetColor: string;
  portal: unknown;
  enabledFeatures: string[];
  enabledLanguages: { name: string; iso_639_1_code: string }[];
  replyTime: string;
  preChatFormEnabled: boolean;
  preChatFormOptions: { pre_chat_message?: string; pre_chat_fields?: PreChatField[] } | null;
  workingHoursEnabled: boolean;
  csatSurveyEnabled: boolean;
  workingHours: WorkingHour[];
  outOfOfficeMessage: string | null;
  utcOffset: string;
  timezone: string;
  allowMessagesAfterResolved: boolean;
  disableBranding: boolean;
};

export type GlobalConfig = {
  LOGO_THUMBNAIL?: string;
  BRAND_NAME?: string;
  WIDGET_BRAND_URL?: string;
  DIRECT_UPLOADS_ENABLED?: unknown;
  MAXIMUM_FILE_UPLOAD_SIZE?: number | string;
  INSTALLATION_NAME?: string;
};

export type Globals = {
  chatwootWebChannel: Channel;
  chatwootPubsubToken: string;
  authToken: string;
  globalConfig: GlobalConfig;
};

export function readGlobals(): Globals {
  const parsed = JSON.parse(document.getElementById("widget-globals")?.textContent || "{}") as Partial<Globals>;
  const channel = { ...(parsed.chatwootWebChannel ?? {}) } as Channel;
  channel.enabledLanguages = Array.isArray(channel.enabledLanguages) ? channel.enabledLanguages : [];
  channel.enabledFeatures = Array.isArray(channel.enabledFeatures) ? channel.enabledFeatures : [];
  channel.workingHours = Array.isArray(channel.workingHours) ? channel.workingHours : [];
  const globals: Globals = {
    chatwootWebChannel: channel,
    chatwootPubsubToken: parsed.chatwootPubsubToken ?? "",
    authToken: parsed.authToken ?? "",
    globalConfig: parsed.globalConfig ?? {},
  };
  Object.assign(window, globals);
  return globals;
}
