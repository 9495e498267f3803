/**
 * The built-in providers as `latchkey init` offers them: each provider module's file name (the
 * `latchkey/providers/<file>` subpath), the name `latchkey/providers` exports its factory under, and
 * what calling that factory with no options says about it (its id, its type, and whether it needs
 * an instance URL in `AUTH_<ID>_ISSUER`). The table is checked against src/providers/ by
 * test/cli/init-providers.test.ts, so a new provider module that is not listed here fails a test.
 */
import * as providers from "../../providers/index.js"
import type { ProviderConfig } from "../../providers/index.js"

/** Every provider module (its subpath) and the export name of its factory in `latchkey/providers`. */
const MODULES = {
  "42-school": "FortyTwoSchool",
  "amazon": "Amazon",
  "anilist": "AniList",
  "apple": "Apple",
  "asgardeo": "Asgardeo",
  "atlassian": "Atlassian",
  "auth0": "Auth0",
  "authentik": "Authentik",
  "autodesk": "Autodesk",
  "azure-ad-b2c": "AzureADB2C",
  "azure-ad": "AzureAD",
  "azure-devops": "AzureDevOps",
  "bankid-no": "BankIDNorway",
  "battlenet": "BattleNet",
  "beyondidentity": "BeyondIdentity",
  "bitbucket": "Bitbucket",
  "box": "Box",
  "boxyhq-saml": "BoxyHQSAML",
  "bungie": "Bungie",
  "click-up": "ClickUp",
  "cognito": "Cognito",
  "coinbase": "Coinbase",
  "concept2": "Concept2",
  "descope": "Descope",
  "digitalocean": "DigitalOcean",
  "discord": "Discord",
  "dribbble": "Dribbble",
  "dropbox": "Dropbox",
  "duende-identity-server6": "DuendeIdentityServer6",
  "epicgames": "EpicGames",
  "etsy": "Etsy",
  "eventbrite": "Eventbrite",
  "eveonline": "EVEOnline",
  "facebook": "Facebook",
  "faceit": "FACEIT",
  "figma": "Figma",
  "fitbit": "Fitbit",
  "foursquare": "Foursquare",
  "freshbooks": "FreshBooks",
  "frontegg": "Frontegg",
  "fusionauth": "FusionAuth",
  "gitea": "Gitea",
  "github": "GitHub",
  "gitlab": "GitLab",
  "google": "Google",
  "heroku": "Heroku",
  "hubspot": "HubSpot",
  "huggingface": "HuggingFace",
  "identity-server4": "IdentityServer4",
  "instagram": "Instagram",
  "intuit": "Intuit",
  "kakao": "Kakao",
  "keycloak": "Keycloak",
  "kick": "Kick",
  "kinde": "Kinde",
  "lichess": "Lichess",
  "line": "Line",
  "linear": "Linear",
  "linkedin": "LinkedIn",
  "logto": "Logto",
  "mailchimp": "Mailchimp",
  "mailru": "MailRu",
  "mastodon": "Mastodon",
  "mattermost": "Mattermost",
  "medium": "Medium",
  "mercadolibre": "MercadoLibre",
  "microsoft-entra-id": "MicrosoftEntraID",
  "myanimelist": "MyAnimeList",
  "naver": "Naver",
  "netlify": "Netlify",
  "netsuite": "NetSuite",
  "nextcloud": "Nextcloud",
  "notion": "Notion",
  "okta": "Okta",
  "onelogin": "OneLogin",
  "ory-hydra": "OryHydra",
  "osso": "Osso",
  "osu": "Osu",
  "passage": "Passage",
  "patreon": "Patreon",
  "paypal": "PayPal",
  "ping-id": "PingId",
  "pinterest": "Pinterest",
  "pipedrive": "Pipedrive",
  "polar": "Polar",
  "reddit": "Reddit",
  "roblox": "Roblox",
  "salesforce": "Salesforce",
  "shikimori": "Shikimori",
  "simplelogin": "SimpleLogin",
  "slack": "Slack",
  "spotify": "Spotify",
  "startgg": "StartGG",
  "strava": "Strava",
  "threads": "Threads",
  "tiktok": "TikTok",
  "todoist": "Todoist",
  "trakt": "Trakt",
  "tumblr": "Tumblr",
  "twitch": "Twitch",
  "twitter": "Twitter",
  "united-effects": "UnitedEffects",
  "vercel": "Vercel",
  "vipps": "Vipps",
  "vk": "VK",
  "webex": "Webex",
  "wechat": "WeChat",
  "wikimedia": "Wikimedia",
  "wordpress": "WordPress",
  "workos": "WorkOS",
  "xero": "Xero",
  "yahoo": "Yahoo",
  "yandex": "Yandex",
  "zitadel": "Zitadel",
  "zoho": "Zoho",
  "zoom": "Zoom",
  "credentials": "Credentials",
  "webauthn": "WebAuthn",
  "passkey": "Passkey",
  "password": "Password",
  "email": "Email",
  "forwardemail": "ForwardEmail",
  "loops": "Loops",
  "mailgun": "Mailgun",
  "nodemailer": "Nodemailer",
  "postmark": "Postmark",
  "resend": "Resend",
  "sendgrid": "SendGrid",
} as const satisfies Record<string, keyof typeof providers>

/** A provider module as `init` writes it into an app. */
export interface CatalogProvider {
  /** The module's subpath: `import <exportName> from "latchkey/providers/<file>"`. */
  file: string
  /** The factory's export name, used as the imported name. */
  exportName: string
  /** The provider's id: its callback path and its `AUTH_<ID>_*` variables. */
  id: string
  type: ProviderConfig["type"]
  /** Whether the provider has no fixed issuer, so `AUTH_<ID>_ISSUER` must name the instance. */
  needsIssuer: boolean
}

type Factory = (options?: Record<string, never>) => ProviderConfig

function authorizationUrl(config: ProviderConfig): string | undefined {
  if (!("authorization" in config)) return undefined
  const { authorization } = config
  return typeof authorization === "string" ? authorization : authorization?.url
}

/** A provider whose endpoints are templates or discovered from an issuer it does not know. */
function needsIssuer(config: ProviderConfig): boolean {
  if (config.type !== "oauth" && config.type !== "oidc") return false
  if (config.issuer !== undefined) return false
  if (config.type === "oidc" || config.wellKnown?.includes("{") === true) return true
  const authorization = authorizationUrl(config)
  return config.wellKnown === undefined && (authorization === undefined || authorization.includes("{"))
}

function describe(file: string, exportName: string): CatalogProvider {
  const factory = (providers as unknown as Record<string, Factory>)[exportName]!
  const config = factory()
  return { file, exportName, id: config.id, type: config.type, needsIssuer: needsIssuer(config) }
}

let catalog: CatalogProvider[] | undefined

/** Every built-in provider, in file-name order. */
export function providerCatalog(): CatalogProvider[] {
  catalog ??= Object.entries(MODULES)
    .map(([file, exportName]) => describe(file, exportName))
    .sort((a, b) => a.file.localeCompare(b.file))
  return catalog
}

/** The provider a user named, by its file name or its id (`ory-hydra` and `hydra` alike). */
export function findProvider(name: string): CatalogProvider | undefined {
  const wanted = name.trim().toLowerCase()
  return providerCatalog().find((provider) => provider.file === wanted || provider.id === wanted)
}
