/**
 * window.chatwootSettings as a page sets it before the snippet runs (docs/widget.md lists every key), read
 * once by run() into the state of window.$chatwoot, with Chatwoot's defaults.
 */
import { type ColorScheme, colorScheme } from "../shared/protocol";

export type Settings = {
  position: "left" | "right";
  type: "standard" | "expanded_bubble";
  launcherTitle: string;
  hideMessageBubble: boolean;
  showPopoutButton: boolean;
  showUnreadMessagesDialog: boolean;
  widgetStyle: "standard" | "flat";
  darkMode: ColorScheme;
  locale?: string;
  useBrowserLanguage: boolean;
  baseDomain?: string;
  welcomeTitle: string;
  welcomeDescription: string;
  availableMessage: string;
  unavailableMessage: string;
  enableFileUpload?: boolean;
  enableEmojiPicker: boolean;
  enableEndConversation: boolean;
};

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function readSettings(raw: Record<string, unknown> = {}): Settings {
  const useBrowserLanguage = Boolean(raw.useBrowserLanguage);
  const locale = useBrowserLanguage ? navigator.language.replace("-", "_") : text(raw.locale) || undefined;
  return {
    position: raw.position === "left" ? "left" : "right",
    type: raw.type === "expanded_bubble" ? "expanded_bubble" : "standard",
    launcherTitle: text(raw.launcherTitle),
    hideMessageBubble: Boolean(raw.hideMessageBubble),
    showPopoutButton: Boolean(raw.showPopoutButton),
    showUnreadMessagesDialog: raw.showUnreadMessagesDialog !== false,
    widgetStyle: raw.widgetStyle === "flat" ? "flat" : "standard",
    darkMode: colorScheme(raw.darkMode),
    locale,
    useBrowserLanguage,
    baseDomain: text(raw.baseDomain) || undefined,
    welcomeTitle: text(raw.welcomeTitle),
    welcomeDescription: text(raw.welcomeDescription),
    availableMessage: text(raw.availableMessage),
    unavailableMessage: text(raw.unavailableMessage),
    enableFileUpload: typeof raw.enableFileUpload === "boolean" ? raw.enableFileUpload : undefined,
    enableEmojiPicker: raw.enableEmojiPicker !== false,
    enableEndConversation: raw.enableEndConversation !== false,
  };
}

/** The settings the widget app needs, sent with `config-set` once the frame has loaded. */
export const configFor = (settings: Settings, campaignsSnoozedTill?: string) => ({
  locale: settings.locale,
  position: settings.position,
  hideMessageBubble: settings.hideMessageBubble,
  showPopoutButton: settings.showPopoutButton,
  showUnreadMessagesDialog: settings.showUnreadMessagesDialog,
  widgetStyle: settings.widgetStyle,
  darkMode: settings.darkMode,
  welcomeTitle: settings.welcomeTitle,
  welcomeDescription: settings.welcomeDescription,
  availableMessage: settings.availableMessage,
  unavailableMessage: settings.unavailableMessage,
  enableFileUpload: settings.enableFileUpload,
  enableEmojiPicker: settings.enableEmojiPicker,
  enableEndConversation: settings.enableEndConversation,
  campaignsSnoozedTill,
});
