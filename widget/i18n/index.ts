/**
 * The widget's languages: English, French, Spanish and German, chosen by the inbox's account locale, the
 * page's `?locale=`, the loader's `locale` setting or `setLocale`. A locale the inbox does not list in
 * `enabledLanguages` is refused, as in Chatwoot's widget; a listed one without texts here falls back to
 * its base language, then English.
 */
import { de } from "./de";
import { en, type Texts } from "./en";
import { es } from "./es";
import { fr } from "./fr";

const TEXTS: Record<string, Texts> = { en, fr, es, de };
const RIGHT_TO_LEFT = ["ar", "fa", "he", "ur"];

let current = "en";
let texts: Texts = en;

export type TextKey = keyof Texts;

/** The text of `key` in the current language, with `{name}` placeholders filled from `values`. */
export function t(key: TextKey, values: Record<string, string | number> = {}): string {
  return texts[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ""));
}

export const currentLocale = () => current;

/**
 * Switches to `locale` (`pt_BR` or `pt`) when the inbox enables it; answers whether it switched.
 * `enabled` is the inbox's enabledLanguages (iso_639_1_code of each).
 */
export function setLocale(locale: unknown, enabled: { iso_639_1_code: string }[]): boolean {
  if (typeof locale !== "string" || !locale) return false;
  const base = locale.split(/[_-]/)[0];
  const codes = enabled.map((language) => language.iso_639_1_code);
  const chosen = codes.includes(locale) ? locale : codes.includes(base) ? base : undefined;
  if (!chosen) return false;
  current = chosen;
  texts = TEXTS[chosen] ?? TEXTS[chosen.split("_")[0]] ?? en;
  document.documentElement.lang = chosen.replace("_", "-");
  document.documentElement.dir = RIGHT_TO_LEFT.includes(chosen.split("_")[0]) ? "rtl" : "ltr";
  return true;
}
