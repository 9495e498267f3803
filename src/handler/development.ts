/**
 * The development build of the handler's development-only hints: the error page's hint, and the
 * warning for a request on another origin than `AUTH_URL`'s. Both act only when the app runs in
 * development (`diagnostics.development`), and their text loads on demand, so only a failing or
 * misconfigured request in development pays for it.
 *
 * The handler imports this file as `#development` (package.json "imports"). A bundler building for
 * production (the `production` condition: webpack, Vite, Parcel and Turbopack set it) gets
 * `production.ts` instead, which does nothing, so a production bundle carries none of this text;
 * everything else (Node without a bundler, esbuild without the condition, the tests) gets this file.
 * Hints that production needs too (logged errors, driver codes, untrusted-host fixes) are not here.
 */
import type { SettledConfig } from "./context.js"
import { ERROR_MESSAGES } from "./errors.js"

/** The hint for an error page showing `code`, in development; undefined in production. */
export async function developmentHint(development: boolean, code: string | null): Promise<string | undefined> {
  return development ? (await import("./error-page-hint.js")).errorPageHint(code, code !== null && Object.hasOwn(ERROR_MESSAGES, code)) : undefined
}

/** The origin check, once loaded: every later request checks without a dynamic import or a promise. */
let originCheck: typeof import("./origin-mismatch.js") | undefined

/**
 * In development, warns once per origin when `request` came in on another origin than `AUTH_URL`'s
 * (the caller checks both first). A promise only for the first request, which loads the check.
 */
export function warnOnOriginMismatch(settled: Pick<SettledConfig, "pinnedUrl" | "diagnostics">, request: Request, url: URL): void | Promise<void> {
  if (originCheck !== undefined) return originCheck.warnOnOriginMismatch(settled, request, url)
  return import("./origin-mismatch.js").then((loaded) => {
    originCheck = loaded
    loaded.warnOnOriginMismatch(settled, request, url)
  })
}
