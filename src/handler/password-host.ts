/**
 * What the handler lends the password routes (which live in `latchkey/passwords`): its CSRF check
 * and tokens, this browser's signed-in user (confirmed against the row: the session store's
 * `confirmedUser`), its sign-in completion, ending a user's sessions, its events, its redirect check,
 * its pages and its answers, and its logging of a failure (a driver's error as its code, see
 * loggable-error.ts). The routes get these and nothing else of the handler.
 */
import { browserBinding, csrfToken } from "../adapters/browser-binding.js"
import { fireEvent } from "../adapters/events.js"
import type { PasswordHost } from "../passwords/host.js"
import { completeSignIn, revokeSessions } from "./complete-sign-in.js"
import { hasJsonBody } from "./body.js"
import type { RequestContext } from "./context.js"
import { verifyCsrf } from "./csrf.js"
import { errorMessage } from "./errors.js"
import { loggableError } from "./loggable-error.js"
import { page } from "./pages/layout.js"
import { safeRedirect } from "./redirect.js"
import { html, json, redirect } from "./response.js"
import { returnedRedirect, wantsReturnedRedirect } from "./return-redirect.js"

/** Whether the caller wants JSON: latchkey/client's header, or a JSON body. */
function wantsJson(request: Request): boolean {
  return wantsReturnedRedirect(request) || hasJsonBody(request)
}

/** A redirect as `200 { url }` (with its cookies) for a script, else as it is. */
function answerFor(context: RequestContext, scripted: boolean, response: Response): Response {
  if (!scripted || wantsReturnedRedirect(context.request)) return response
  return returnedRedirect(context, response)
}

/** The capabilities of this request for the password routes. */
export function passwordHost(context: RequestContext): PasswordHost {
  const scripted = wantsJson(context.request)
  return {
    request: context.request,
    url: context.url,
    baseUrl: context.baseUrl,
    secret: context.secret,
    adapter: context.adapter,
    logger: context.logger,
    logFailure: async (failure) => context.logger.error(await loggableError(failure)),
    wantsJson: scripted,
    signInUrl: new URL(context.pages.signIn ?? `${context.baseUrl}/signin`, context.origin).href,
    verifyCsrf: (submitted) => verifyCsrf(context, submitted),
    csrfToken: () => csrfToken(context),
    browserBinding: async () => browserBinding(context),
    // Changing a password or an address is a change that lasts: the row decides, never the cache.
    // The rate-limit gate may have read it for this request already; that read is taken once.
    signedInUser: () => {
      const confirmed = context.gateUser ?? context.sessions.confirmedUser(context)
      context.gateUser = undefined
      return confirmed
    },
    completeSignIn: ({ user, providerId, isNewUser, callbackUrl }) =>
      completeSignIn(context, {
        user,
        account: { provider: providerId, type: "credentials", providerAccountId: user.id! },
        provider: { id: providerId, type: "credentials" },
        // The routes found or made the user themselves: no account linking.
        resolveUser: async () => ({ user, isNewUser }),
        callbackUrl: callbackUrl ?? undefined,
      }),
    revokeSessions: (userId) => revokeSessions(context, userId),
    refreshSession: (user) => context.sessions.refreshUser(context, user),
    fireEvent: (name, message) => fireEvent(context, name, message),
    safeRedirect: (requested) => safeRedirect(context, requested ?? undefined),
    go: (url, cookies = []) => answerFor(context, scripted, redirect(url, cookies)),
    json,
    redirect,
    asAnswer: (response) => answerFor(context, scripted, response),
    page: (title, content, cookies = []) => html(page(title, content, context.theme), cookies),
    errorMessage: (code) => (code ? errorMessage(code) : undefined),
  }
}
