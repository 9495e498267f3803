import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The `FullAccount` of `POST /2/users/get_current_account`.
 *
 * @example
 * ```ts
 * import Dropbox, { type DropboxProfile } from "latchkey/providers/dropbox"
 * const provider = Dropbox({
 *   profile: (profile: DropboxProfile) => ({ id: profile.account_id, name: profile.name.familiar_name, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface DropboxProfile {
  account_id: string
  name: { given_name: string; surname: string; familiar_name: string; display_name: string; abbreviated_name: string }
  email: string
  email_verified: boolean
  disabled: boolean
  locale: string
  referral_link: string
  is_paired: boolean
  account_type: { ".tag": "basic" | "pro" | "business" }
  root_info: { ".tag": string; root_namespace_id: string; home_namespace_id: string; [field: string]: unknown }
  profile_photo_url?: string
  country?: string
  team?: Record<string, unknown>
  team_member_id?: string
  [field: string]: unknown
}

/**
 * Sign in with Dropbox (OAuth 2.0 with PKCE).
 *
 * Setup: create an app in the App Console (https://www.dropbox.com/developers/apps) with the
 * redirect URI `<base>/callback/dropbox` and the `account_info.read` permission; set
 * `AUTH_DROPBOX_ID` (the App key) and `AUTH_DROPBOX_SECRET` (the App secret).
 *
 * Quirk, handled for you: the account is read from `users/get_current_account`, an RPC endpoint
 * that must be called with POST and a JSON `null` body. Access tokens are short-lived; Dropbox
 * issues a refresh token only when asked: `authorization: { params: { token_access_type: "offline" } }`.
 *
 * Exported from `latchkey/providers/dropbox` and `latchkey/providers`.
 * Docs: https://developers.dropbox.com/oauth-guide
 *
 * @example
 * ```ts
 * import Dropbox from "latchkey/providers/dropbox"
 * const provider = Dropbox({ authorization: { params: { token_access_type: "offline" } } })
 * ```
 */
export default function Dropbox(options?: OAuthUserConfig<DropboxProfile>): OAuthConfig<DropboxProfile> {
  return oauthProvider(
    {
      id: "dropbox",
      name: "Dropbox",
      type: "oauth",
      authorization: { url: "https://www.dropbox.com/oauth2/authorize", params: { scope: "account_info.read" } },
      token: "https://api.dropboxapi.com/oauth2/token",
      userinfo: {
        url: "https://api.dropboxapi.com/2/users/get_current_account",
        request: ({ provider, fetchJson }) =>
          fetchJson(provider.userinfo.url!, { method: "POST", headers: { "content-type": "application/json" }, body: "null" }),
      },
      capabilities: { refresh: true, revocation: false },
      docs: "https://developers.dropbox.com/oauth-guide",
      style: { brandColor: "#0061FF", mark: () => import("./logos/dropbox.js") },
      profile: (profile) => ({ id: profile.account_id, name: profile.name.display_name, email: profile.email, image: profile.profile_photo_url ?? null }),
    },
    options
  )
}
