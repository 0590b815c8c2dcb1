/**
 * The widget's colours: the inbox's widgetColor (with readable text on it) and the colour scheme, light,
 * dark or auto (the visitor's system setting, followed as it changes). CSS variables on <html>, set from
 * script, since the page's policy allows no inline style attributes.
 */
import type { ColorScheme } from "../shared/protocol";

const darkQuery = matchMedia("(prefers-color-scheme: dark)");
let scheme: ColorScheme = "light";

const apply = () => document.documentElement.classList.toggle("dark", scheme === "dark" || (scheme === "auto" && darkQuery.matches));
darkQuery.addEventListener?.("change", apply);

export function setColorScheme(next: ColorScheme) {
  scheme = next;
  apply();
}

export function setWidgetColor(color: string) {
  if (!/^#([0-9a-f]{3}){1,2}$/i.test(color)) return;
  const hex = color.length === 4 ? color.replace(/[0-9a-f]/gi, (digit) => digit + digit) : color;
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255);
  // relative luminance (WCAG): dark text on light colours, white on the rest
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  document.documentElement.style.setProperty("--cw-color", hex);
  document.documentElement.style.setProperty("--cw-on-color", luminance > 0.5 ? "#1f2d3d" : "#ffffff");
}
