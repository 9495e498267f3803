import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The `user` form field Apple posts on a user's first sign-in only.
 *
 * @example
 * ```ts
 * import type { AppleFirstSignInUser } from "latchkey/providers/apple"
 * // Sent on the first sign-in only: store it then, or the name is gone.
 * const givenName = (user: AppleFirstSignInUser | undefined) => user?.name?.firstName ?? null
 * ```
 */
export interface AppleFirstSignInUser {
  name?: { firstName?: string; lastName?: string }
  email?: string
}

/**
 * The claims of an Apple id_token, plus the first-sign-in `user` field when present.
 *
 * @example
 * ```ts
 * import type { AppleProfile } from "latchkey/providers/apple"
 * const isRelayAddress = (profile: AppleProfile) => profile.is_private_email === true || profile.is_private_email === "true"
 * ```
 */
export interface AppleProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  sub: string
  at_hash?: string
  nonce?: string
  nonce_supported?: boolean
  auth_time?: number
  email?: string
  /** A boolean, or the strings "true"/"false" in older tokens. */
  email_verified?: boolean | "true" | "false"
  /** Whether `email` is a private relay address. */
  is_private_email?: boolean | "true" | "false"
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2
  transfer_sub?: string
  /** Present on the first sign-in only: Apple never sends the name again. */
  user?: AppleFirstSignInUser
  [claim: string]: unknown
}

function fullName(user: AppleFirstSignInUser | undefined): string | null {
  const parts = [user?.name?.firstName, user?.name?.lastName].filter((part): part is string => typeof part === "string" && part !== "")
  return parts.length > 0 ? parts.join(" ") : null
}

/**
 * Sign in with Apple (OpenID Connect).
 *
 * Setup: in https://developer.apple.com/account/resources/identifiers create an App ID with
 * "Sign in with Apple" and a Services ID (its identifier is the client id) whose return URL is
 * `<base>/callback/apple` (https only, no localhost); create a Sign in with Apple key. The client
 * secret is a JWT you sign with that key and renew at least every six months. Set
 * `AUTH_APPLE_ID` and `AUTH_APPLE_SECRET`.
 *
 * Quirks, handled for you: with name/email scopes Apple answers with a form POST
 * (`response_mode=form_post`), so the callback accepts POST and the check cookies are
 * `SameSite=None; Secure`; the user's name arrives only once, in the first sign-in's `user` form
 * field, and is mapped from there; there is no userinfo endpoint, so the profile is the id_token.
 *
 * Exported from `latchkey/providers/apple` and `latchkey/providers`.
 * Docs: https://developer.apple.com/documentation/signinwithapplerestapi
 *
 * @example
 * ```ts
 * import Apple from "latchkey/providers/apple"
 * const provider = Apple({ clientId: "com.acme.web", clientSecret: process.env.APPLE_CLIENT_SECRET })
 * ```
 */
export default function Apple(options?: OIDCUserConfig<AppleProfile>): OIDCConfig<AppleProfile> {
  return oidcProvider(
    {
      id: "apple",
      name: "Apple",
      type: "oidc",
      issuer: "https://appleid.apple.com",
      authorization: { params: { scope: "name email" } },
      checks: ["nonce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      quirks: { formPost: true, firstSignInUserField: true },
      capabilities: { refresh: true, revocation: "https://appleid.apple.com/auth/revoke" },
      docs: "https://developer.apple.com/documentation/signinwithapplerestapi",
      style: { brandColor: "#000000", mark: () => import("./logos/apple.js") },
      profile: (profile) => ({ id: profile.sub, name: fullName(profile.user), email: profile.email ?? null, image: null }),
    },
    options
  )
}
