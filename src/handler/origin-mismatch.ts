/**
 * In development, a warning when a request reaches the handler on another origin than `AUTH_URL`'s:
 * `localhost` against `127.0.0.1`, another port, http against https. Everything still answers for
 * `AUTH_URL`'s origin, so the mistake otherwise shows up far from its cause: the provider's
 * `invalid_redirect_uri`, or "the pkce check failed: its cookie is missing" because the cookie was
 * set on one host and the provider sent the browser back to the other. Once per origin.
 */
import type { SettledConfig } from "./context.js"

/** The origin the browser used, as the request says it: forwarded headers first, then Host, then the URL. */
function requestOrigin(request: Request, url: URL): string | undefined {
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host") || url.host
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.slice(0, -1)
  const candidate = `${proto === "https" ? "https" : "http"}://${host}`
  return URL.canParse(candidate) ? new URL(candidate).origin : undefined
}

/** What differs between the two origins, said as the likely mistake. */
function differenceOf(seen: URL, pinned: URL): string {
  if (seen.protocol !== pinned.protocol) return `the scheme differs (${seen.protocol.slice(0, -1)} against ${pinned.protocol.slice(0, -1)})`
  if (seen.hostname !== pinned.hostname) return `${seen.hostname} and ${pinned.hostname} are different sites to a browser`
  return "the port differs"
}

/** Warns, once per origin and only in development, when `request` came in on another origin than `AUTH_URL`. */
export function warnOnOriginMismatch(settled: Pick<SettledConfig, "pinnedUrl" | "diagnostics">, request: Request, url: URL): void {
  const pinned = settled.pinnedUrl
  if (pinned === undefined || !settled.diagnostics.development) return
  const seen = requestOrigin(request, url)
  if (seen === undefined || seen === pinned.origin) return
  const difference = differenceOf(new URL(seen), pinned)
  settled.diagnostics.warnOnce(`origin:${seen}`, "ORIGIN_MISMATCH", `a request came to ${seen}, but AUTH_URL is ${pinned.href}: ${difference}, and sign-ins return to AUTH_URL without this origin's cookies. Open the app at ${pinned.origin}, or change AUTH_URL`)
}
