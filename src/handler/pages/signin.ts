/**
 * The default sign-in page: a "Sign in with <name>" button per OAuth/OIDC provider, drawn to the
 * provider's published button guidelines where it has them (brands.ts) and otherwise in its brand
 * colour, with its mark; an email form per email provider, a form built from `credentials` per
 * credentials provider, the email + password form of a password provider (with its links to create
 * an account and reset a password), and the friendly text for `?error=`.
 */
import type { CredentialInput, ResolvedProvider } from "../../providers/types.js"
import type { AuthTheme } from "../options.js"
import { errorMessage } from "../errors.js"
import { brandButton, brandButtonFor } from "./brands.js"
import { button, escapeHtml, hidden, page } from "./layout.js"
import type { PasswordSignInFormParams } from "../../passwords/host.js"
import type { WebAuthnCeremony } from "../../webauthn/types.js"

/** What the sign-in page shows. */
export interface SignInPageParams {
  providers: ResolvedProvider[]
  csrfToken: string
  callbackUrl?: string
  error?: string
  theme?: AuthTheme
  /** Each provider's mark (an inline `<svg>` element, from `logoMarkup`), by id. */
  logos?: Record<string, string | undefined>
  /** With a passkey provider and the ceremony: where the handler answers, the script's URL, and the ceremony's section. */
  passkey?: { baseUrl: string; script: string; section: WebAuthnCeremony["signInSection"] }
  /** Where the handler answers (`<origin><basePath>`): the password form links to its sign-up and forgot pages. */
  baseUrl?: string
  /** With the `passwords` plug-in: its email + password form (its markup lives in `latchkey/passwords`). */
  passwordForm?: (params: PasswordSignInFormParams) => string
}

/** A password provider's form, with the sign-up link when it allows sign-up. */
function passwordForm(provider: Extract<ResolvedProvider, { type: "password" }>, common: string, params: SignInPageParams): string {
  const base = params.baseUrl
  const query = params.callbackUrl ? `?${new URLSearchParams({ callbackUrl: params.callbackUrl })}` : ""
  return params.passwordForm!({
    id: provider.id,
    action: provider.callbackUrl,
    common,
    error: params.error,
    forgotUrl: base === undefined ? undefined : `${base}/password/forgot${query}`,
    signUpUrl: base === undefined || !provider.allowSignUp ? undefined : `${base}/password/sign-up${query}`,
  })
}

function oauthButton(provider: ResolvedProvider & { type: "oauth" | "oidc" }, mark: string | undefined): string {
  const { logo, brandColor } = provider.style
  const label = `Sign in with ${provider.name}`
  // An app that gives the provider its own logo has chosen its own look.
  if (logo) return button(label, brandColor, `<img src="${escapeHtml(logo)}" alt="" aria-hidden="true">`)
  const brand = brandButtonFor(provider.id)
  return brand ? brandButton(brand, provider.name, mark) : button(label, brandColor, mark)
}

const INPUT_ATTRIBUTES = new Set(["type", "placeholder", "autocomplete", "required", "minlength", "maxlength", "pattern", "inputmode"])

function input(name: string, field: CredentialInput, id: string): string {
  const attributes = Object.entries(field)
    .filter(([key, value]) => INPUT_ATTRIBUTES.has(key.toLowerCase()) && value !== undefined && value !== false)
    .map(([key, value]) => (value === true ? ` ${key}` : ` ${key}="${escapeHtml(String(value))}"`))
    .join("")
  const label = field.label ?? name
  return `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${escapeHtml(name)}"${attributes}>`
}

function providerForm(provider: ResolvedProvider, common: string, logo?: string): string {
  const action = escapeHtml(provider.signinUrl)
  if (provider.type === "email") {
    const id = `email-${escapeHtml(provider.id)}`
    const field = input("email", { label: "Email", type: "email", autocomplete: "email", required: true, placeholder: "you@example.com" }, id)
    return `<form method="post" action="${action}">${common}${field}${button(`Sign in with ${provider.name}`)}</form>`
  }
  if (provider.type === "credentials") {
    const fields = Object.entries(provider.credentials).map(([name, field]) => input(name, field, `${escapeHtml(provider.id)}-${escapeHtml(name)}`))
    return `<form method="post" action="${action}">${common}${fields.join("")}${button(`Sign in with ${provider.name}`)}</form>`
  }
  if (provider.type === "oauth" || provider.type === "oidc") {
    return `<form method="post" action="${action}">${common}${oauthButton(provider, logo)}</form>`
  }
  return ""
}

/** The id of a page's error text, which the password form's refused fields point at (aria-describedby). */
const FORM_ERROR_ID = "form-error"

/** The sign-in page's HTML. */
export function signInPage(params: SignInPageParams): string {
  const common = hidden({ csrfToken: params.csrfToken, callbackUrl: params.callbackUrl })
  const oauth = params.providers.filter((provider) => provider.type === "oauth" || provider.type === "oidc").map((provider) => providerForm(provider, common, params.logos?.[provider.id]))
  const forms = params.providers.filter((provider) => provider.type === "email" || provider.type === "credentials").map((provider) => providerForm(provider, common))
  const passkeys = params.passkey ? params.providers.flatMap((provider) => (provider.type === "webauthn" ? [params.passkey!.section(provider, params.passkey!.baseUrl, common)] : [])) : []
  const passwords = params.passwordForm ? params.providers.flatMap((provider) => (provider.type === "password" ? [passwordForm(provider, common, params)] : [])) : []
  const sections = [oauth.join(""), ...passwords, ...passkeys, ...forms].filter((section) => section !== "")
  const message = params.error ? errorMessage(params.error) : undefined
  // The id lets a refused password form's fields point at the text (aria-describedby).
  const alert = message ? `<div class="alert" role="alert" id="${FORM_ERROR_ID}">${escapeHtml(message)}</div>` : ""
  return page("Sign in", `<h1>Sign in</h1>${alert}${sections.join('<div class="divider">or</div>')}`, params.theme, params.passkey?.script)
}
