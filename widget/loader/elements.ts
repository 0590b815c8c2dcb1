/**
 * The loader's elements on the host page: the frame holder with the widget's iframe, the launcher bubble
 * (open and close buttons, unread badge) and the stylesheet. Class names are Chatwoot's (`woot-*`): page
 * scripts and wrappers such as @productdevbook/chatwoot watch `.woot-widget-holder` for `woot--hide`.
 */
import css from "./styles.css";
import type { Settings } from "./settings";

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.6 3.4 6.1L4.5 21l4.3-2.3c1 .2 2.1.3 3.2.3 5.5 0 10-3.6 10-8s-4.5-8-10-8z"/></svg>';
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18.3 5.7a1 1 0 0 0-1.4 0L12 10.6 7.1 5.7a1 1 0 1 0-1.4 1.4l4.9 4.9-4.9 4.9a1 1 0 1 0 1.4 1.4l4.9-4.9 4.9 4.9a1 1 0 0 0 1.4-1.4L13.4 12l4.9-4.9a1 1 0 0 0 0-1.4z"/></svg>';

export type Elements = {
  style: HTMLStyleElement;
  holder: HTMLDivElement;
  frame: HTMLIFrameElement;
  bubbles: HTMLDivElement;
  open: HTMLButtonElement;
  close: HTMLButtonElement;
  label: HTMLSpanElement;
  badge: HTMLSpanElement;
};

function button(className: string, icon: string): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.innerHTML = icon;
  element.setAttribute("aria-controls", "cw-widget-holder");
  return element;
}

export function createElements(settings: Settings, src: string): Elements {
  const style = document.createElement("style");
  style.id = "cw-widget-styles";
  style.textContent = css;

  const side = `woot-elements--${settings.position}`;
  const holder = document.createElement("div");
  holder.id = "cw-widget-holder";
  holder.className = `woot-widget-holder woot--hide ${side}`;
  if (settings.hideMessageBubble) holder.classList.add("woot-widget--without-bubble");
  // Turbo keeps elements marked permanent across its page swaps instead of replacing them
  holder.setAttribute("data-turbo-permanent", "");

  const frame = document.createElement("iframe");
  frame.id = "chatwoot_live_chat_widget";
  frame.title = settings.launcherTitle || "Chat";
  frame.src = src;
  frame.setAttribute("allow", "camera;microphone;fullscreen;display-capture;picture-in-picture;clipboard-write;autoplay");
  frame.style.visibility = "hidden";
  holder.appendChild(frame);

  const bubbles = document.createElement("div");
  bubbles.className = "woot--bubble-holder";
  bubbles.setAttribute("data-turbo-permanent", "");
  if (settings.hideMessageBubble) bubbles.classList.add("woot-hidden");
  const flat = settings.widgetStyle === "flat" ? " woot--flat" : "";
  const expanded = settings.type === "expanded_bubble" ? " woot--expanded" : "";
  const open = button(`woot-widget-bubble ${side}${flat}${expanded}`, CHAT_ICON);
  const label = document.createElement("span");
  label.id = "woot-widget--expanded__text";
  if (expanded) open.appendChild(label);
  const badge = document.createElement("span");
  badge.className = "woot--unread-badge";
  badge.setAttribute("aria-hidden", "true");
  open.appendChild(badge);
  const close = button(`woot-widget-bubble woot--close woot--hide ${side}${flat}`, CLOSE_ICON);
  bubbles.append(open, close);
  return { style, holder, frame, bubbles, open, close, label, badge };
}

/**
 * Puts the elements (back) into `body` and the stylesheet into the document's head, after an SPA swapped
 * them out too. Answers whether the frame moved: a moved iframe loads its page again.
 */
export function attach(elements: Elements, body: HTMLElement = document.body): boolean {
  const head = body.ownerDocument.head ?? body;
  if (!elements.style.isConnected || elements.style.ownerDocument !== body.ownerDocument) head.appendChild(elements.style);
  if (elements.bubbles.parentNode !== body) body.appendChild(elements.bubbles);
  if (elements.holder.parentNode === body) return false;
  body.appendChild(elements.holder);
  return true;
}

/** The launcher's accessible name and, on the expanded bubble, its text. */
export function setLabel(elements: Elements, text: string) {
  elements.label.textContent = text;
  elements.open.setAttribute("aria-label", text);
  elements.frame.title = text;
}
