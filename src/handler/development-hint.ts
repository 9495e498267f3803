/**
 * The error page's hint in development; none in production, where the page is for users. The hint's
 * text lives in `error-page-hint.ts` and loads on demand: only a failing or misconfigured request
 * in development pays for it.
 */
import { ERROR_MESSAGES } from "./errors.js"

/** The hint for an error page showing `code`, in development; undefined in production. */
export async function developmentHint(development: boolean, code: string | null): Promise<string | undefined> {
  return development ? (await import("./error-page-hint.js")).errorPageHint(code, code !== null && Object.hasOwn(ERROR_MESSAGES, code)) : undefined
}
