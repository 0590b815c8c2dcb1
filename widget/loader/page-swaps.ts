/**
 * Keeps the loader's elements on pages that replace their body (Turbo, Turbolinks, Astro view transitions,
 * or any SPA that swaps document.body) and tells the frame when the page's URL changes (pushState
 * navigation), as Chatwoot's loader does for campaigns.
 */
type Swap = { detail?: { newBody?: HTMLElement; renderMethod?: string }; data?: { newBody?: HTMLElement }; newDocument?: Document };

export function watchPage(reattach: (body?: HTMLElement) => void, urlChanged: (url: string) => void) {
  // the frameworks' own hooks hand over the next body before it is shown: the elements move in with it
  document.addEventListener("turbo:before-render", (event) => {
    const detail = (event as unknown as Swap).detail;
    if (detail?.renderMethod !== "morph" && detail?.newBody) reattach(detail.newBody);
  });
  document.addEventListener("turbolinks:before-render", (event) => {
    const body = (event as unknown as Swap).data?.newBody;
    if (body) reattach(body);
  });
  document.addEventListener("astro:before-swap", (event) => {
    const body = (event as unknown as Swap).newDocument?.body;
    if (body) reattach(body);
  });
  // anything else: after each batch of changes, put the elements back if the body or they were replaced
  let url = location.href;
  const observer = new MutationObserver(() => {
    reattach();
    if (location.href !== url) {
      url = location.href;
      urlChanged(url);
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  addEventListener("popstate", () => {
    if (location.href !== url) {
      url = location.href;
      urlChanged(url);
    }
  });
}
