import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The response of `GET https://api.pipedrive.com/v1/users/me`.
 *
 * @example
 * ```ts
 * import Pipedrive, { type PipedriveProfile } from "latchkey/providers/pipedrive"
 * const provider = Pipedrive({
 *   profile: ({ data }: PipedriveProfile) => ({ id: String(data.id), name: `${data.name} (${data.company_name})`, email: data.email, image: data.icon_url }),
 * })
 * ```
 */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    icon_url: string | null
    phone?: string | null
    lang?: number
    locale?: string
    timezone_name?: string
    active_flag?: boolean
    is_admin?: number
    role_id?: number
    company_id: number
    company_name: string
    company_domain: string
    company_country?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Sign in with Pipedrive (OAuth 2.0, Marketplace apps).
 *
 * Setup: in Developer Hub (https://developers.pipedrive.com), create an app with the callback URL
 * `<base>/callback/pipedrive`, and choose its scopes there (Pipedrive takes none in the
 * authorization request); set `AUTH_PIPEDRIVE_ID` and `AUTH_PIPEDRIVE_SECRET`.
 *
 * Quirks: the profile is wrapped in `data`; the id is the user's id, which is unique only together
 * with the company (`data.company_id`) when a person belongs to several companies; Pipedrive
 * documents no PKCE, so `state` protects the flow.
 *
 * Exported from `latchkey/providers/pipedrive` and `latchkey/providers`.
 * Docs: https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 *
 * @example
 * ```ts
 * import Pipedrive from "latchkey/providers/pipedrive"
 * const provider = Pipedrive() // AUTH_PIPEDRIVE_ID / AUTH_PIPEDRIVE_SECRET
 * ```
 */
export default function Pipedrive(options?: OAuthUserConfig<PipedriveProfile>): OAuthConfig<PipedriveProfile> {
  return oauthProvider(
    {
      id: "pipedrive",
      name: "Pipedrive",
      type: "oauth",
      authorization: "https://oauth.pipedrive.com/oauth/authorize",
      token: "https://oauth.pipedrive.com/oauth/token",
      userinfo: "https://api.pipedrive.com/v1/users/me",
      checks: ["state"],
      capabilities: { refresh: true, revocation: "https://oauth.pipedrive.com/oauth/revoke" },
      docs: "https://pipedrive.readme.io/docs/marketplace-oauth-authorization",
      style: { brandColor: "#017737" },
      profile: ({ data }) => ({ id: String(data.id), name: data.name, email: data.email, image: data.icon_url }),
    },
    options
  )
}
