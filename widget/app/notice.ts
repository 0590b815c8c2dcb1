/** Short notes for the visitor (a transcript sent, an error), in a live region screen readers announce. */
let region: HTMLElement | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

export function mountNotice(into: HTMLElement) {
  region = document.createElement("div");
  region.className = "cw-notice";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  into.appendChild(region);
}

export function notice(text: string) {
  if (!region) return;
  region.textContent = text;
  region.classList.add("is-shown");
  clearTimeout(timer);
  timer = setTimeout(() => region?.classList.remove("is-shown"), 4000);
}
