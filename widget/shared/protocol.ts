/**
 * The postMessage protocol between the loader on the host page (sdk.js) and the widget app in the frame:
 * strings `chatwoot-widget:` + JSON of `{event, ...payload}`, both ways (docs/widget.md). Chatwoot's own
 * widget speaks it, so pages and wrappers written against Chatwoot's work with these files unchanged.
 */
export const PREFIX = "chatwoot-widget:";

export type FrameMessage = { event?: string; [key: string]: unknown };

export const encode = (message: FrameMessage): string => PREFIX + JSON.stringify(message);

/** The message inside a posted value, or null for anything else a page may post (other libraries use postMessage too). */
export function decode(data: unknown): (FrameMessage & { event: string }) | null {
  if (typeof data !== "string" || !data.startsWith(PREFIX)) return null;
  try {
    const message = JSON.parse(data.slice(PREFIX.length));
    return message && typeof message === "object" && typeof message.event === "string" ? message : null;
  } catch {
    return null;
  }
}

export type ColorScheme = "light" | "dark" | "auto";

/** `darkMode` as the settings and setColorScheme take it: anything unknown is light, as in Chatwoot's SDK. */
export const colorScheme = (value: unknown): ColorScheme => (value === "dark" || value === "auto" ? value : "light");
