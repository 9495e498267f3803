/**
 * The development hint under an error page's message: where the cause is logged, and the
 * troubleshooting section for the page's code. Loaded on demand by development error pages, and
 * imports nothing at run time.
 */

/** The troubleshooting page, with one section per error code (its anchor is the code itself). */
export const TROUBLESHOOTING_PAGE = "docs/troubleshooting.md"

/** The hint for a page showing `code`; `known` is false for `?error=` text that is no code (anyone can write one). */
export function errorPageHint(code: string | null, known: boolean): string {
  const page = known && code !== null ? `${TROUBLESHOOTING_PAGE}#${code}` : TROUBLESHOOTING_PAGE
  return `Development: the cause is in the server's log, on the line that starts with [latchkey][error] and its code (such as ERR_OAUTH_CALLBACK). See ${page} for this page, and the section named by that code.`
}
