/**
 * Where the widget runs and how it talks to what embeds it: the loader on a host page (an iframe, with the
 * `chatwoot-widget:` messages of widget/shared/protocol.ts), a React Native WebView (the same messages
 * through window.ReactNativeWebView, and injected `window.postMessage` calls back), or a window of its own
 * (the pop-out, or the page opened directly).
 */
import { decode, encode, type FrameMessage } from "../shared/protocol";

declare global {
  interface Window {
    ReactNativeWebView?: { postMessage(message: string): void };
  }
}

export const inFrame = (() => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
})();

export const inReactNative = () => Boolean(window.ReactNativeWebView);

/** Posts to the loader (any origin: the host page's is not known here) and to a React Native app. */
export function toHost(message: FrameMessage) {
  if (inFrame) window.parent.postMessage(encode(message), "*");
  if (inReactNative()) window.ReactNativeWebView!.postMessage(encode(message));
}

/** A window event for the host page (chatwoot:on-message and the like), raised by the loader. */
export const raise = (eventIdentifier: string, data?: unknown) => toHost({ event: "onEvent", eventIdentifier, data });

/**
 * Calls `handle` for each message of the loader (the parent window) or of a React Native app (which
 * injects `window.postMessage` into this page); other windows' messages are ignored.
 */
export function listenToHost(handle: (message: FrameMessage & { event: string }) => void) {
  addEventListener("message", (event) => {
    if (event.source !== window.parent && event.source !== window && event.source !== null) return;
    const message = decode(event.data);
    if (message) handle(message);
  });
}
