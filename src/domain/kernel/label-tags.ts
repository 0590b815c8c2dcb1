/**
 * A conversation label is a free-form tag (Chatwoot's labels need no Label record): any text that is not
 * blank once trimmed, within a string column's 255 characters. The labels route's schema and the
 * automation label actions both judge names by this one rule.
 */
export const LABEL_TAG_MAX = 255;

/** What is wrong with `name` as a label, or null when it is a label. */
export function labelTagProblem(name: string): "blank" | "too_long" | null {
  if (name.length > LABEL_TAG_MAX) return "too_long";
  if (name.trim() === "") return "blank";
  return null;
}
