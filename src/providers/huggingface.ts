import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Hugging Face id_token (and of its userinfo response).
 *
 * @example
 * ```ts
 * import type { HuggingFaceProfile } from "latchkey/providers/huggingface"
 * const organisations = (profile: HuggingFaceProfile) => profile.orgs?.map((org) => org.preferred_username) ?? []
 * ```
 */
export interface HuggingFaceProfile {
  sub: string
  /** The full name; with the `profile` scope. */
  name?: string
  /** The username; with the `profile` scope. */
  preferred_username?: string
  /** The profile page URL; with the `profile` scope. */
  profile?: string
  picture?: string
  website?: string
  /** With the `email` scope; Hugging Face requires a verified address to authorize apps. */
  email?: string
  email_verified?: boolean
  isPro?: boolean
  /** With the `read-billing` scope. */
  canPay?: boolean
  orgs?: Array<{ sub: string; name: string; preferred_username: string; picture: string; isEnterprise: boolean; [field: string]: unknown }>
  [claim: string]: unknown
}

/**
 * Sign in with Hugging Face (OpenID Connect).
 *
 * Setup: create an OAuth app in your settings (https://huggingface.co/settings/applications/new)
 * with the `openid`, `profile` and `email` scopes and the redirect URI
 * `<base>/callback/huggingface`; set `AUTH_HUGGINGFACE_ID` and `AUTH_HUGGINGFACE_SECRET`.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/huggingface` and `latchkey/providers`.
 * Docs: https://huggingface.co/docs/hub/oauth
 *
 * @example
 * ```ts
 * import HuggingFace from "latchkey/providers/huggingface"
 * const provider = HuggingFace({ authorization: { params: { scope: "openid profile email read-repos" } } })
 * ```
 */
export default function HuggingFace(options?: OIDCUserConfig<HuggingFaceProfile>): OIDCConfig<HuggingFaceProfile> {
  return oidcProvider(
    {
      id: "huggingface",
      name: "Hugging Face",
      type: "oidc",
      issuer: "https://huggingface.co",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: true, revocation: false },
      docs: "https://huggingface.co/docs/hub/oauth",
      style: { brandColor: "#FFD21E", mark: () => import("./logos/huggingface.js") },
    },
    options
  )
}
