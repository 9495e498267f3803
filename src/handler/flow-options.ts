/** The options every call into the sign-in flow (`latchkey/oauth`) gets from a request's context. */
import type { SignInOptions } from "../oauth/context.js"
import type { RequestContext } from "./context.js"
import { checkCookieNames } from "../jwt/cookie-names.js"

/** The flow options of this request, less the redirect URI each step chooses. */
export function flowOptions(context: RequestContext): Omit<SignInOptions, "redirectUri"> {
  return {
    secret: context.secret,
    secure: context.secure,
    ...context.http,
    checkCookieNames: checkCookieNames(context.cookies),
  }
}

