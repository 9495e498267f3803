/**
 * Moving the browser to where the handler sends it. A URL that differs from this page only in its
 * `#fragment` would not load anything, so the page is reloaded instead: the server must render it
 * again with the new cookies. Outside a browser nothing happens.
 */

/** This page's URL, or undefined outside a browser. */
export function currentHref(): string | undefined {
  return typeof location === "undefined" ? undefined : location.href
}

export function navigate(url: string): void {
  if (typeof location === "undefined") return
  const target = new URL(url, location.href)
  const withoutHash = (href: string) => href.split("#")[0]
  const reloads = target.hash !== "" && withoutHash(target.href) === withoutHash(location.href)
  location.assign(target.href)
  if (reloads) location.reload()
}
