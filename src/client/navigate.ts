/**
 * Moving the browser to where the handler sends it. A URL that differs from this page only in its
 * `#fragment` would not load anything, so the page is reloaded instead: the server must render it
 * again with the new cookies. Outside a browser nothing happens.
 */

/** This page's URL, or undefined outside a browser. */
export function currentHref(): string | undefined {
  return typeof location === "undefined" ? undefined : location.href
}

/**
 * Whether the browser may be sent to `url`: http or https, or relative to the page. Read by the
 * URL parser, as `location` reads it (which drops tabs and newlines, so `java\nscript:` is
 * `javascript:`): a `javascript:` or `data:` url assigned to `location` would run in the app's origin.
 */
export function isPageUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url, "https://page.invalid/")
    return protocol === "https:" || protocol === "http:"
  } catch {
    return false
  }
}

/** Sends the browser to `url`; one that is not a page ({@link isPageUrl}) is never assigned, whoever answered it. */
export function navigate(url: string): void {
  if (typeof location === "undefined" || !isPageUrl(url)) return
  const target = new URL(url, location.href)
  const withoutHash = (href: string) => href.split("#")[0]
  const reloads = target.hash !== "" && withoutHash(target.href) === withoutHash(location.href)
  location.assign(target.href)
  if (reloads) location.reload()
}
