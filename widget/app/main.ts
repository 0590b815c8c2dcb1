/**
 * widget.js, the app of the /widget page (docs/widget.md, "The loader and the widget page in the
 * browser"): reads the page's globals, tells the loader (or a React Native app) it has loaded, follows
 * the loader's messages, loads the visitor's conversation, opens the live stream and draws the screens:
 * home, pre-chat form, conversation, and the unread preview.
 */
import { api, configureApi } from "./api";
import { catchUp, loadAll, markSeen, setUser } from "./actions";
import { openCable } from "./cable";
import { h } from "./dom";
import { readGlobals } from "./globals";
import { inFrame, listenToHost, toHost } from "./host";
import { receive } from "./live";
import { mountNotice } from "./notice";
import { createConversationView, type ConversationView } from "./screens/conversation";
import { renderHeader } from "./screens/header";
import { renderHome } from "./screens/home";
import { renderPreChat } from "./screens/prechat";
import { leaveUnread, renderUnread, unreadHeight } from "./screens/unread";
import { changed, onChange, type Part, state } from "./state";
import { setColorScheme, setWidgetColor } from "./theme";
import { colorScheme, type FrameMessage } from "../shared/protocol";
import { setLocale, t } from "../i18n";

const globals = readGlobals();
const channel = globals.chatwootWebChannel;
const config = globals.globalConfig;
configureApi(channel.websiteToken, globals.authToken);
setLocale(channel.locale, channel.enabledLanguages);
if (!inFrame) setLocale(new URLSearchParams(location.search).get("locale"), channel.enabledLanguages);
setWidgetColor(channel.widgetColor);
// a window of its own (pop-out, React Native) is always open
state.open = !inFrame;
document.documentElement.classList.toggle("cw-standalone", !inFrame);

const root = document.getElementById("app") ?? document.body.appendChild(h("div", { id: "app" }));
const header = h("div", { class: "cw-header-slot" });
const main = h("main", { class: "cw-main", id: "cw-main" });
const footer = h("footer", { class: "cw-footer" });
const shell = h("div", { class: "cw-widget" }, header, main, footer);
root.replaceChildren(shell);
mountNotice(shell);
let conversation: ConversationView | null = null;

function branding() {
  const brand = config.BRAND_NAME || config.INSTALLATION_NAME || "";
  const url = config.WIDGET_BRAND_URL && /^https?:\/\//.test(config.WIDGET_BRAND_URL) ? config.WIDGET_BRAND_URL : undefined;
  if (channel.disableBranding || !brand || state.screen === "messages" || state.screen === "unread") return [];
  const text = t("poweredBy", { brand });
  return [url ? h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, text) : h("span", {}, text)];
}

/**
 * Puts `next` in `slot` unless what is there already looks the same: presence and contact updates come
 * often, and a screen drawn again under the visitor's pointer would swallow a click or an open menu.
 */
function swap(slot: HTMLElement, next: HTMLElement | string) {
  const current = slot.firstElementChild;
  if (typeof next !== "string" && current && current.outerHTML === next.outerHTML) return false;
  slot.replaceChildren(next);
  return true;
}

function render(part: Part | "all" = "all") {
  const screen = state.screen;
  shell.classList.toggle("is-unread", screen === "unread");
  if (part === "all" || part === "screen" || part === "agents" || part === "conversation" || part === "contact") {
    swap(header, screen === "unread" ? "" : renderHeader(channel));
    footer.replaceChildren(...branding());
  }
  if (screen === "messages") {
    if (!conversation) conversation = createConversationView(channel, config);
    if (main.firstChild !== conversation.element) main.replaceChildren(conversation.element);
    conversation.update();
    if (part === "screen" && state.open) conversation.focus();
    return;
  }
  if (part === "typing") return;
  if (screen === "home") {
    // drawn again as agents come and go: a visitor on its button keeps the focus there
    const focused = main.contains(document.activeElement);
    if (swap(main, renderHome(channel)) && focused) (main.querySelector("button") as HTMLElement | null)?.focus();
  } else if (screen === "prechat") {
    // drawn again when the contact arrives (fields it already has are not asked), unless the visitor is filling it in
    if (part === "all" || part === "screen" || (part === "contact" && !main.contains(document.activeElement))) main.replaceChildren(renderPreChat(channel));
  } else if (screen === "unread") {
    const preview = renderUnread();
    main.replaceChildren(preview);
    requestAnimationFrame(() => unreadHeight(preview));
  }
  // a new screen the visitor opened takes the focus; the preview of a closed widget never does
  if (part === "screen" && state.open) (main.querySelector("button, input, textarea, select") as HTMLElement | null)?.focus();
}

onChange(render);

/** A new language or settings: every screen is drawn again (the conversation's elements too). */
function redraw() {
  conversation = null;
  render("all");
}

const SETTINGS = Object.keys(state.settings) as (keyof typeof state.settings)[];

/**
 * The page's calls one after another, in the order it made them: setUser may make the visitor another
 * contact (a new token), and a setCustomAttributes right after it must reach that contact, not the old one.
 */
let pageCalls: Promise<unknown> = Promise.resolve();
const inOrder = (work: () => Promise<unknown>) => (pageCalls = pageCalls.then(work).catch(() => undefined));

/** The loader's messages (widget/shared/protocol.ts; Chatwoot's widget answers the same ones). */
const fromHost: Record<string, (message: FrameMessage) => void> = {
  "config-set"(message) {
    for (const key of SETTINGS) if (message[key] !== undefined) (state.settings as Record<string, unknown>)[key] = message[key];
    state.settings.darkMode = colorScheme(message.darkMode);
    setColorScheme(state.settings.darkMode);
    setLocale(message.locale, channel.enabledLanguages);
    toHost({ event: "setBubbleLabel", label: t("bubbleLabel") });
    redraw();
  },
  "set-locale"(message) {
    if (setLocale(message.locale, channel.enabledLanguages)) redraw();
    toHost({ event: "setBubbleLabel", label: t("bubbleLabel") });
  },
  "set-color-scheme"(message) {
    state.settings.darkMode = colorScheme(message.darkMode);
    setColorScheme(state.settings.darkMode);
  },
  "toggle-open"(message) {
    state.open = Boolean(message.isOpen);
    if (state.open && (state.screen === "unread" || (state.screen === "home" && state.messages.length))) {
      state.screen = "messages";
      toHost({ event: "resetUnreadMode" });
      changed("screen");
    } else if (!state.open && state.screen === "unread") leaveUnread(false);
    if (state.open && state.screen === "messages") markSeen();
  },
  "toggle-close-button"(message) {
    state.isMobile = Boolean(message.isMobile ?? message.showClose);
    render("screen");
  },
  "push-event"(message) {
    if (message.eventName === "webwidget.triggered" && state.screen !== "unread") api.event("webwidget.triggered").catch(() => undefined);
  },
  "set-user": (message) => inOrder(() => setUser(message.identifier, (message.user ?? {}) as Record<string, unknown>, reopenCable)),
  "set-custom-attributes"(message) {
    const attributes = message.customAttributes as Record<string, unknown> | undefined;
    if (attributes && Object.keys(attributes).length) inOrder(() => api.updateContact({ custom_attributes: attributes }));
  },
  "delete-custom-attribute"(message) {
    if (typeof message.customAttribute === "string") inOrder(() => api.deleteContactAttribute(message.customAttribute as string));
  },
  "set-conversation-custom-attributes"(message) {
    // the React Native wrapper names the field conversationCustomAttributes
    const attributes = (message.customAttributes ?? message.conversationCustomAttributes) as Record<string, unknown> | undefined;
    if (attributes && Object.keys(attributes).length) inOrder(() => api.setConversationAttributes(attributes));
  },
  "delete-conversation-custom-attribute"(message) {
    if (typeof message.customAttribute === "string") inOrder(() => api.deleteConversationAttribute(message.customAttribute as string));
  },
  "set-label"(message) {
    if (typeof message.label === "string" && message.label) inOrder(() => api.addLabel(message.label as string));
  },
  "remove-label"(message) {
    if (typeof message.label === "string" && message.label) inOrder(() => api.removeLabel(message.label as string));
  },
  "sdk-set-bubble-visibility"(message) {
    state.settings.hideMessageBubble = Boolean(message.hideMessageBubble);
  },
  "change-url"(message) {
    if (typeof message.referrerURL === "string") (window as { referrerURL?: string }).referrerURL = message.referrerURL;
  },
  "widget-visible": () => render("messages"),
};

listenToHost((message) => {
  if (Object.hasOwn(fromHost, message.event)) fromHost[message.event](message);
});
addEventListener("keydown", (event) => {
  if (event.key === "Escape" && inFrame && state.open && !event.defaultPrevented) toHost({ event: "closeWindow" });
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && state.open && state.screen === "messages") markSeen();
});

render("all");
toHost({ event: "loaded", config: { authToken: globals.authToken, channelConfig: channel } });
loadAll().then(() => {
  // an open widget (a window of its own always is) shows the conversation when there is one
  if (state.open && state.screen === "home" && state.messages.length) {
    state.screen = "messages";
    changed("screen");
  }
});
const reconnected = () => catchUp().catch(() => undefined);
let cable = openCable(globals.chatwootPubsubToken, receive, reconnected);

/** After setUser made the visitor another contact: that contact's live stream (its pubsub_token, from /config). */
async function reopenCable() {
  const pubsubToken = (await api.config()).contact?.pubsub_token;
  if (!pubsubToken) return;
  cable.close();
  cable = openCable(pubsubToken, receive, reconnected);
}
