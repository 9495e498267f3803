/**
 * Where the handler may send a browser: only relative paths and URLs on the app's own origin, so a
 * `callbackUrl` can never turn sign-in into an open redirect. The `redirect` callback is consulted,
 * and its answer is held to the same rule.
 */
import type { RequestContext } from "./context.js"

/** Longer than any URL an app redirects to; a longer value is refused before it is parsed. */
const MAX_URL_LENGTH = 8 * 1024

/**
 * `url` resolved against the origin when it lands on that origin, else undefined.
 *
 * The decision is made on the parsed URL, never on the raw string: the URL parser drops tabs and
 * line breaks and reads `\` as `/`, so `/\t/evil.example` and `/\\evil.example` are protocol-relative
 * to a browser however innocent the string looks. Whatever the parser (and so the browser) makes
 * of the value is what is compared with the origin.
 */
export function sameOrigin(url: string | null | undefined, origin: string): string | undefined {
  if (!url || url.length > MAX_URL_LENGTH) return undefined
  let parsed: URL
  try {
    parsed = new URL(url, origin)
  } catch {
    return undefined
  }
  // The scheme too: a `blob:` URL made on this origin has the origin's own `origin`.
  return parsed.origin === origin && parsed.protocol === `${origin.slice(0, origin.indexOf(":"))}:` ? parsed.href : undefined
}

/** The safe destination for `requested`, after the `redirect` callback; the origin's root by default. */
export async function safeRedirect(context: RequestContext, requested: string | null | undefined): Promise<string> {
  const fallback = `${context.origin}/`
  const candidate = sameOrigin(requested, context.origin)
  const callback = context.callbacks.redirect
  if (!callback) return candidate ?? fallback
  // Nothing asked for: the callback is shown `url` equal to `baseUrl`, as Auth.js shows it (apps test `url === baseUrl`).
  return sameOrigin(await callback({ url: candidate ?? context.origin, baseUrl: context.origin }), context.origin) ?? fallback
}
