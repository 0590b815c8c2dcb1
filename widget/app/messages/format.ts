/**
 * A message's text as elements: line breaks, links (http, https, mailto) and **bold**. Built node by
 * node, never through innerHTML, so nothing an agent or visitor wrote can become markup.
 */
const TOKENS = /(\*\*[^*\n]+\*\*|https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]|mailto:[^\s<>"']+)/g;

export function formatText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  text.split("\n").forEach((line, index) => {
    if (index > 0) fragment.append(document.createElement("br"));
    for (const part of line.split(TOKENS)) {
      if (!part) continue;
      if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
        const strong = document.createElement("strong");
        strong.textContent = part.slice(2, -2);
        fragment.append(strong);
      } else if (/^(https?:\/\/|mailto:)/.test(part)) {
        const link = document.createElement("a");
        link.href = part;
        link.textContent = part.replace(/^mailto:/, "");
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        fragment.append(link);
      } else fragment.append(part);
    }
  });
  return fragment;
}
