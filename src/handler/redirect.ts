/**
 * Where the handler may send a browser: only relative paths and URLs on the app's own origin, so a
 * `callbackUrl` can never turn sign-in into an open redirect. The `redirect` callback is consulted,
 * and its answer is held to the same rule.
 */
import type { RequestContext } from "./config.js"

/** `url` resolved against the origin when it is relative or same-origin, else undefined. */
export function sameOrigin(url: string | null | undefined, origin: string): string | undefined {
  if (!url) return undefined
  // "//host" and "/\host" are protocol-relative to browsers: never treat them as paths.
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\")) return new URL(url, origin).href
  try {
    const parsed = new URL(url)
    return parsed.origin === origin ? parsed.href : undefined
  } catch {
    return undefined
  }
}

/** The safe destination for `requested`, after the `redirect` callback; the origin's root by default. */
export async function safeRedirect(context: RequestContext, requested: string | null | undefined): Promise<string> {
  const fallback = `${context.origin}/`
  const candidate = sameOrigin(requested, context.origin) ?? fallback
  const callback = context.config.callbacks?.redirect
  if (!callback) return candidate
  return sameOrigin(await callback({ url: candidate, baseUrl: context.origin }), context.origin) ?? fallback
}
