/**
 * sdk.js, the loader a host page embeds with the snippet every Chatwoot website inbox hands out:
 * `window.chatwootSDK.run({websiteToken, baseUrl})`. It reads window.chatwootSettings, builds
 * window.$chatwoot, puts the launcher and the widget's iframe (BASE/widget) on the page, keeps the
 * visitor's cookies and relays the widget's events as window events (docs/widget.md, "The loader and the
 * widget page in the browser"). It loads nothing but that iframe and, for the new-message sound, BASE's ding.
 */
import { readCookie, removeCookie, userFingerprint, writeCookie } from "./cookies";
import { attach, createElements, type Elements, setLabel } from "./elements";
import { watchPage } from "./page-swaps";
import { configFor, readSettings, type Settings } from "./settings";
import { colorScheme, decode, encode, type FrameMessage } from "../shared/protocol";

type User = Record<string, unknown>;

declare global {
  interface Window {
    chatwootSettings?: Record<string, unknown>;
    chatwootSDK?: { run: typeof run };
    $chatwoot?: Record<string, unknown>;
  }
}

const HOUR = 3_600_000;
const MOBILE = "(max-width: 667px)";

function run({ websiteToken, baseUrl }: { websiteToken: string; baseUrl: string }) {
  if (window.$chatwoot) return;
  const base = String(baseUrl ?? "").replace(/\/+$/, "");
  const origin = new URL(base || location.href, location.href).origin;
  const settings: Settings = readSettings(window.chatwootSettings);
  const { baseDomain } = settings;
  const userCookie = `cw_user_${websiteToken}`;
  const query = (extra: string) => `${base}/widget?website_token=${encodeURIComponent(websiteToken)}${extra}`;
  const token = readCookie("cw_conversation");
  const elements: Elements = createElements(settings, query(token ? `&cw_conversation=${encodeURIComponent(token)}` : ""));
  let bubbleLabel = settings.launcherTitle;
  let sound: HTMLAudioElement | undefined;
  // calls made while the frame (re)loads wait for its `loaded`, instead of going to a page about to be replaced
  let frameReady = false;
  let waiting: FrameMessage[] = [];

  const post = (message: FrameMessage) => elements.frame.contentWindow?.postMessage(encode(message), origin);
  const send = (event: string, payload: FrameMessage = {}) => (frameReady ? post({ event, ...payload }) : waiting.push({ event, ...payload }));
  const dispatch = (name: string, detail?: unknown) => window.dispatchEvent(new CustomEvent(name, { detail }));

  function setOpen(next?: boolean) {
    const state = $chatwoot as { isOpen: boolean };
    const isOpen = next ?? !state.isOpen;
    if (isOpen === state.isOpen) return;
    state.isOpen = isOpen;
    elements.holder.classList.toggle("woot--hide", !isOpen);
    elements.open.classList.toggle("woot--hide", isOpen);
    elements.close.classList.toggle("woot--hide", !isOpen);
    elements.open.setAttribute("aria-expanded", String(isOpen));
    elements.close.setAttribute("aria-expanded", String(isOpen));
    send("toggle-open", { isOpen });
    if (isOpen) {
      send("push-event", { eventName: "webwidget.triggered" });
      elements.frame.focus();
    } else {
      elements.holder.classList.remove("has-unread-view");
      if (!settings.hideMessageBubble) elements.open.focus();
    }
    dispatch(isOpen ? "chatwoot:opened" : "chatwoot:closed");
  }

  function popout(locale = settings.locale ?? "") {
    const conversation = readCookie("cw_conversation") ?? "";
    setOpen(false);
    window.open(
      `${base}/widget?cw_conversation=${encodeURIComponent(conversation)}&website_token=${encodeURIComponent(websiteToken)}&locale=${encodeURIComponent(locale)}`,
      "webwidget",
      "resizable=off,width=400,height=600",
    );
  }

  function playSound() {
    sound ??= new Audio(`${base}/audio/widget/ding.mp3`);
    sound.currentTime = 0;
    // browsers refuse sound before the visitor has interacted with the page: then there is none
    sound.play().catch(() => undefined);
  }

  const requireKeys = (value: unknown) => {
    if (!value || typeof value !== "object" || !Object.keys(value).length) throw new Error("Custom attributes should have atleast one key");
  };
  const requireKey = (value: unknown) => {
    if (!value) throw new Error("Custom attribute is required");
  };

  const $chatwoot = {
    baseUrl: base,
    websiteToken,
    hasLoaded: false,
    isOpen: false,
    resetTriggered: false,
    ...settings,

    toggle(state?: "open" | "close") {
      setOpen(state === "open" ? true : state === "close" ? false : undefined);
    },
    toggleBubbleVisibility(visibility: "show" | "hide") {
      if (visibility !== "show" && visibility !== "hide") return;
      const hide = visibility === "hide";
      settings.hideMessageBubble = hide;
      $chatwoot.hideMessageBubble = hide;
      elements.bubbles.classList.toggle("woot-hidden", hide);
      elements.holder.classList.toggle("woot-widget--without-bubble", hide);
      send("sdk-set-bubble-visibility", { hideMessageBubble: hide });
    },
    popoutChatWindow() {
      popout();
    },
    setUser(identifier: string | number, user: User) {
      if (typeof identifier !== "string" && typeof identifier !== "number") throw new Error("Identifier should be a string or a number");
      if (!user || typeof user !== "object" || !("email" in user || "name" in user || "avatar_url" in user)) {
        throw new Error("User object should have one of the keys [avatar_url, email, name]");
      }
      const fingerprint = userFingerprint(identifier, user);
      if (readCookie(userCookie) === fingerprint) return;
      Object.assign($chatwoot, { identifier, user });
      send("set-user", { identifier, user });
      writeCookie(userCookie, fingerprint, baseDomain);
    },
    setCustomAttributes(customAttributes: Record<string, unknown> = {}) {
      requireKeys(customAttributes);
      send("set-custom-attributes", { customAttributes });
    },
    deleteCustomAttribute(customAttribute = "") {
      requireKey(customAttribute);
      send("delete-custom-attribute", { customAttribute });
    },
    setConversationCustomAttributes(customAttributes: Record<string, unknown> = {}) {
      requireKeys(customAttributes);
      send("set-conversation-custom-attributes", { customAttributes });
    },
    deleteConversationCustomAttribute(customAttribute = "") {
      requireKey(customAttribute);
      send("delete-conversation-custom-attribute", { customAttribute });
    },
    setLabel(label = "") {
      send("set-label", { label });
    },
    removeLabel(label = "") {
      send("remove-label", { label });
    },
    setLocale(locale = "en") {
      settings.locale = locale;
      $chatwoot.locale = locale;
      send("set-locale", { locale });
    },
    setColorScheme(darkMode = "light") {
      settings.darkMode = colorScheme(darkMode);
      $chatwoot.darkMode = settings.darkMode;
      send("set-color-scheme", { darkMode: settings.darkMode });
    },
    reset() {
      setOpen(false);
      removeCookie("cw_conversation", baseDomain);
      removeCookie(userCookie, baseDomain);
      delete ($chatwoot as Partial<typeof $chatwoot>).user;
      delete ($chatwoot as Partial<typeof $chatwoot>).identifier;
      frameReady = false;
      waiting = [];
      elements.frame.src = query("");
      $chatwoot.resetTriggered = true;
    },
  } as Record<string, unknown> & Settings & { identifier?: string | number; user?: User; hasLoaded: boolean; isOpen: boolean; resetTriggered: boolean };
  window.$chatwoot = $chatwoot;

  const sendUrl = () => send("change-url", { referrerURL: location.href, referrerHost: location.host });
  const sendMobile = () => {
    const isMobile = matchMedia(MOBILE).matches;
    send("toggle-close-button", { isMobile, showClose: isMobile });
  };

  /** What the frame asks of the page (docs/widget.md, "iframe to page"). */
  const fromFrame: Record<string, (message: FrameMessage) => void> = {
    loaded(message) {
      const config = (message.config ?? {}) as { authToken?: string; channelConfig?: { widgetColor?: string } };
      if (config.authToken) writeCookie("cw_conversation", config.authToken, baseDomain);
      const firstLoad = !$chatwoot.hasLoaded;
      $chatwoot.hasLoaded = true;
      frameReady = true;
      send("config-set", configFor(settings, readCookie("cw_snooze_campaigns_till")));
      elements.frame.style.visibility = "";
      const color = config.channelConfig?.widgetColor;
      if (color && /^#[0-9a-f]{3,8}$/i.test(color)) {
        elements.open.style.background = color;
        elements.close.style.background = color;
      }
      sendMobile();
      sendUrl();
      const queued = waiting;
      waiting = [];
      // setUser before the frame was ready, or a frame that loaded again (moved by a page swap): the visitor again
      if ($chatwoot.user && !queued.some((m) => m.event === "set-user")) send("set-user", { identifier: $chatwoot.identifier, user: $chatwoot.user });
      queued.forEach(post);
      // a frame that loaded again learns that it is open
      if ($chatwoot.isOpen) send("toggle-open", { isOpen: true });
      // ready once per page, as a page waits for it once; not after reset (Chatwoot's loader does the same)
      if ($chatwoot.resetTriggered) $chatwoot.resetTriggered = false;
      else if (firstLoad) dispatch("chatwoot:ready");
    },
    setAuthCookie(message) {
      const token = (message.data as { widgetAuthToken?: string } | undefined)?.widgetAuthToken;
      if (token) writeCookie("cw_conversation", token, baseDomain);
    },
    error(message) {
      if (message.errorType === "SET_USER_ERROR") removeCookie(userCookie, baseDomain);
      dispatch("chatwoot:error", message.data);
    },
    onEvent(message) {
      const name = message.eventIdentifier;
      // only the widget's own event names: the frame never raises arbitrary events on the page
      if (typeof name === "string" && name.startsWith("chatwoot:")) dispatch(name, message.data);
    },
    postback(message) {
      dispatch("chatwoot:postback", message.data);
    },
    setBubbleLabel(message) {
      bubbleLabel = settings.launcherTitle || String(message.label ?? "");
      setLabel(elements, bubbleLabel);
    },
    toggleBubble: () => setOpen(),
    closeWindow: () => setOpen(false),
    closeChat: () => setOpen(false),
    popoutChatWindow: (message) => popout(typeof message.locale === "string" ? message.locale : undefined),
    updateIframeHeight(message) {
      const height = Number(message.extraHeight);
      elements.frame.style.height = message.isFixedHeight && height > 0 ? `${height}px` : "";
    },
    setUnreadMode() {
      if ($chatwoot.isOpen || !settings.showUnreadMessagesDialog) return;
      elements.holder.classList.add("has-unread-view");
      elements.holder.classList.remove("woot--hide");
    },
    resetUnreadMode() {
      elements.holder.classList.remove("has-unread-view");
      elements.frame.style.height = "";
      if (!$chatwoot.isOpen) elements.holder.classList.add("woot--hide");
    },
    handleNotificationDot(message) {
      const count = Math.max(0, Number(message.unreadMessageCount) || 0);
      elements.open.classList.toggle("unread-notification", count > 0);
      elements.badge.textContent = count > 9 ? "9+" : String(count);
      elements.open.setAttribute("aria-label", count > 0 ? `${bubbleLabel} (${count})` : bubbleLabel);
    },
    setCampaignReadOn() {
      writeCookie("cw_snooze_campaigns_till", String(Date.now() + HOUR), baseDomain, HOUR);
    },
    playAudio: playSound,
  };

  addEventListener("message", (event) => {
    if (event.source !== elements.frame.contentWindow || event.origin !== origin) return;
    const message = decode(event.data);
    if (message && Object.hasOwn(fromFrame, message.event)) fromFrame[message.event](message);
  });
  elements.open.addEventListener("click", () => setOpen(true));
  elements.close.addEventListener("click", () => setOpen(false));
  addEventListener("keydown", (event) => {
    if (event.key === "Escape" && $chatwoot.isOpen && elements.holder.contains(document.activeElement)) setOpen(false);
  });
  matchMedia(MOBILE).addEventListener?.("change", sendMobile);
  setLabel(elements, bubbleLabel || "Chat");

  const reattach = (body?: HTMLElement) => {
    const moved = body ? attach(elements, body) : document.body ? attach(elements) : false;
    if (moved) frameReady = false;
  };
  if (document.body) attach(elements);
  else document.addEventListener("DOMContentLoaded", () => attach(elements));
  watchPage(reattach, sendUrl);
}

window.chatwootSDK = { run };
