/**
 * The password accounts' pages: sign-up, forgot password, reset password and "check your email",
 * and the email + password form of the sign-in page. Plain forms that post to the handler, with
 * no script: every input has a label and the autocomplete token password managers read
 * (`email`, `new-password`, `current-password`), a refused field is `aria-invalid` and described
 * by the error text (which takes focus), and the length rule is said before the field is filled.
 * They live in `latchkey/passwords`, so an app without passwords bundles none of them; the handler
 * lends the page shell (light and dark, the theme) and the wording of its error codes.
 */
import { escapeHtml, hiddenInputs as hidden } from "../lib/html.js"
import type { PolicyReason } from "./answers.js"
import type { PasswordPage as PasswordPageName, PasswordPageInput as PasswordPageProps, PasswordSignInFormParams } from "./host.js"

/** The text the handler shows for a client error code (its error pages' wording), or undefined. */
export type ErrorText = (code: string | undefined) => string | undefined

/** The submit button, in the brand colour of the handler's page shell. */
const button = (label: string) => `<button type="submit" style="background:var(--brand);color:var(--brand-text)"><span>${escapeHtml(label)}</span></button>`



const REASONS: Record<PolicyReason, string> = {
  too_short: "This password is too short.",
  too_long: "This password is too long.",
  breached: "This password has appeared in a data breach, so attackers try it first. Choose another one.",
  invalid: "This password cannot be used. Choose another one.",
}

/** Form fields the handler reads itself; an app field of the same name would be ambiguous. */
const RESERVED = new Set(["email", "password", "csrfToken", "callbackUrl", "token", "name"])

const LINK_STYLE = ' style="margin:1.25rem 0 0;font-size:.875rem"'

/** The id an error's text has, which the fields it concerns point at. */
export const ERROR_ID = "form-error"

function alertBox(message: string | undefined): string {
  return message === undefined ? "" : `<div class="alert" role="alert" id="${ERROR_ID}">${escapeHtml(message)}</div>`
}

/** The text for a code, with the policy's reason and the length it broke when known. */
function messageFor(props: Pick<PasswordPageProps, "error" | "reason" | "minLength" | "maxLength">, errorMessage: ErrorText): string | undefined {
  if (!props.error) return undefined
  if (props.error !== "PasswordPolicy" || props.reason === undefined || !Object.hasOwn(REASONS, props.reason)) return errorMessage(props.error)
  const bound = props.reason === "too_short" && props.minLength ? ` Use at least ${props.minLength} characters.` : props.reason === "too_long" && props.maxLength ? ` Use at most ${props.maxLength} characters.` : ""
  return `${REASONS[props.reason]}${bound}`
}

interface FieldOptions {
  id: string
  name: string
  label: string
  type?: string
  autocomplete?: string
  required?: boolean
  value?: string
  readonly?: boolean
  /** Length bounds (a new password). */
  minLength?: number
  maxLength?: number
  /** Help said before the field is filled, tied to the field. */
  hint?: string
  /** The field is why the form was refused: invalid, described by the error, and focused. */
  invalid?: boolean
  focus?: boolean
}

function field(options: FieldOptions): string {
  const described = [options.invalid ? ERROR_ID : undefined, options.hint ? `${options.id}-hint` : undefined].filter(Boolean).join(" ")
  const attributes = [
    `id="${escapeHtml(options.id)}"`,
    `name="${escapeHtml(options.name)}"`,
    `type="${escapeHtml(options.type ?? "text")}"`,
    options.autocomplete ? `autocomplete="${options.autocomplete}"` : "",
    options.required ? "required" : "",
    options.readonly ? "readonly" : "",
    options.value !== undefined ? `value="${escapeHtml(options.value)}"` : "",
    options.minLength ? `minlength="${options.minLength}"` : "",
    options.maxLength ? `maxlength="${options.maxLength}"` : "",
    described ? `aria-describedby="${described}"` : "",
    options.invalid ? 'aria-invalid="true"' : "",
    options.focus ? "autofocus" : "",
  ].filter(Boolean)
  const hint = options.hint ? `<p class="hint" id="${escapeHtml(options.id)}-hint">${escapeHtml(options.hint)}</p>` : ""
  return `<label for="${escapeHtml(options.id)}">${escapeHtml(options.label)}</label><input ${attributes.join(" ")}>${hint}`
}

/** What the length rule says before a new password is typed. */
function lengthHint(props: Pick<PasswordPageProps, "minLength" | "maxLength">): string {
  if (props.minLength) return `At least ${props.minLength} characters. A few unrelated words make a strong password that is easy to remember.`
  return "A few unrelated words make a strong password that is easy to remember."
}

function links(items: (string | undefined)[]): string {
  const present = items.filter((item): item is string => item !== undefined)
  return present.length === 0 ? "" : `<p${LINK_STYLE}>${present.join(" · ")}</p>`
}

function link(href: string | undefined, label: string): string | undefined {
  return href === undefined ? undefined : `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`
}

function signUpPage(props: PasswordPageProps, errorMessage: ErrorText): Rendered {
  const message = messageFor(props, errorMessage)
  const policy = props.error === "PasswordPolicy"
  const appFields = props.fields ?? []
  const nameField = appFields.find((candidate) => candidate.name === "name") ?? { name: "name", label: "Name (optional)", required: false }
  const others = appFields.filter((candidate) => !RESERVED.has(candidate.name))
  const inputs = [
    field({ id: "password-name", name: "name", label: nameField.label, type: nameField.type ?? "text", autocomplete: "name", required: nameField.required }),
    field({ id: "password-email", name: "email", label: "Email", type: "email", autocomplete: "email", required: true, value: props.email }),
    field({ id: "password-new", name: "password", label: "Password", type: "password", autocomplete: "new-password", required: true, minLength: props.minLength, maxLength: props.maxLength, hint: lengthHint(props), invalid: policy, focus: policy }),
    ...others.map((extra) => field({ id: `password-field-${extra.name}`, name: extra.name, label: extra.label, type: extra.type, required: extra.required })),
  ]
  const form = `<form method="post" action="${escapeHtml(props.action)}">${hidden({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl })}${inputs.join("")}${button("Create account")}</form>`
  const after = links([props.signInUrl ? `Already have an account? ${link(props.signInUrl, "Sign in")}` : undefined])
  return ["Create an account", `<h1>Create an account</h1>${alertBox(message)}${form}${after}`]
}

function forgotPage(props: PasswordPageProps, errorMessage: ErrorText): Rendered {
  const message = messageFor(props, errorMessage)
  const intro = "<p>Enter the email address of your account. If it has one, we will send a link to choose a new password.</p>"
  const email = field({ id: "password-email", name: "email", label: "Email", type: "email", autocomplete: "email", required: true, value: props.email })
  const form = `<form method="post" action="${escapeHtml(props.action)}">${hidden({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl })}${email}${button("Send reset link")}</form>`
  return ["Forgot your password?", `<h1>Forgot your password?</h1>${alertBox(message)}${intro}${form}${links([link(props.signInUrl, "Back to sign in")])}`]
}

function resetPage(props: PasswordPageProps, errorMessage: ErrorText): Rendered {
  const message = messageFor(props, errorMessage)
  // A link without its token or address cannot reset anything: say so, and offer a new one.
  if (!props.token || !props.email) {
    const text = message ?? errorMessage("InvalidToken")
    return ["Reset your password", `<h1>Reset your password</h1>${alertBox(text)}${links([link(props.forgotUrl, "Request a new link"), link(props.signInUrl, "Back to sign in")])}`]
  }
  const policy = props.error === "PasswordPolicy"
  // The account's address, read-only, with the username token: password managers store the new
  // password under it instead of guessing.
  const inputs =
    field({ id: "password-email", name: "email", label: "Email", type: "email", autocomplete: "username", value: props.email, readonly: true }) +
    field({ id: "password-new", name: "password", label: "New password", type: "password", autocomplete: "new-password", required: true, minLength: props.minLength, maxLength: props.maxLength, hint: lengthHint(props), invalid: policy, focus: true })
  const form = `<form method="post" action="${escapeHtml(props.action)}">${hidden({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl, token: props.token })}${inputs}${button("Set new password")}</form>`
  const expired = props.error === "InvalidToken" ? link(props.forgotUrl, "Request a new link") : undefined
  return ["Reset your password", `<h1>Reset your password</h1>${alertBox(message)}${form}${links([expired, link(props.signInUrl, "Back to sign in")])}`]
}

/**
 * The verification link opened in a browser other than the one that chose the password (a phone,
 * a mail scanner, or someone who never signed up): the password confirms it, so a link followed by
 * a scanner, or by an address's owner who never made the account, never adopts a password someone
 * else chose.
 */
function confirmAddressPage(props: PasswordPageProps, errorMessage: ErrorText): Rendered {
  const message = messageFor(props, errorMessage)
  if (!props.token || !props.email) {
    return ["Confirm your email", `<h1>Confirm your email</h1>${alertBox(message ?? errorMessage("InvalidToken"))}${links([link(props.signInUrl, "Back to sign in")])}`]
  }
  const intro = "<p>This link was opened in another browser than the one the account was made in. Enter the account's password to confirm your address and sign in.</p>"
  const refused = props.error === "CredentialsSignin"
  const inputs =
    field({ id: "password-email", name: "email", label: "Email", type: "email", autocomplete: "username", value: props.email, readonly: true }) +
    field({ id: "password-current", name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true, invalid: refused, focus: true })
  const form = `<form method="post" action="${escapeHtml(props.action)}">${hidden({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl, token: props.token })}${inputs}${button("Confirm and sign in")}</form>`
  const notYours = props.forgotUrl ? `Did not make this account? Ignore the email, or ${link(props.forgotUrl, "choose a password for this address")}.` : undefined
  return ["Confirm your email", `<h1>Confirm your email</h1>${intro}${alertBox(message)}${form}${links([notYours])}`]
}

const CHECK_EMAIL: Record<NonNullable<PasswordPageProps["kind"]>, (to: string) => string> = {
  "verify-email": (to) => `We sent a link to ${to}. Open it to confirm your address and finish creating your account.`,
  reset: (to) => `If an account uses ${to}, we sent it a link to choose a new password.`,
  "change-email": (to) => `We sent a link to ${to}. Your email address changes when you open it; until then, the old one still works.`,
}

function checkEmailPage(props: PasswordPageProps): Rendered {
  const kind = props.kind !== undefined && Object.hasOwn(CHECK_EMAIL, props.kind) ? props.kind : "verify-email"
  const to = props.email ? escapeHtml(props.email) : kind === "change-email" ? "your new address" : "your email address"
  const body = `<p>${CHECK_EMAIL[kind](to)}</p><p>The link can be used once, and expires. It may take a minute to arrive; check your spam folder too.</p>`
  return ["Check your email", `<h1>Check your email</h1>${body}${links([link(props.signInUrl, "Back to sign in")])}`]
}

/**
 * The sign-in page's email + password form, with the links to create an account and to reset a
 * forgotten password. The address field takes the `username` token, as a sign-in form's should,
 * so a password manager fills the pair it saved.
 */
export function passwordSignInForm(params: PasswordSignInFormParams): string {
  const prefix = `${params.id}-signin`
  // A refused sign-in never says which of the two was wrong: both fields are described by the error.
  const refused = params.error === "CredentialsSignin"
  const email = field({ id: `${prefix}-email`, name: "email", label: "Email", type: "email", autocomplete: "username", required: true, invalid: refused, focus: refused })
  const password = field({ id: `${prefix}-password`, name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true, invalid: refused })
  const forgot = params.forgotUrl ? `<p class="hint"><a href="${escapeHtml(params.forgotUrl)}">Forgot your password?</a></p>` : ""
  const signUp = links([params.signUpUrl ? `No account yet? ${link(params.signUpUrl, "Create one")}` : undefined])
  return `<form method="post" action="${escapeHtml(params.action)}">${params.common}${email}${password}${forgot}${button("Sign in")}</form>${signUp}`
}

/** A page's title and content. */
export type Rendered = [title: string, content: string]

const PAGES: Record<PasswordPageName, (props: PasswordPageProps, errorMessage: ErrorText) => Rendered> = {
  "sign-up": signUpPage,
  forgot: forgotPage,
  reset: resetPage,
  "verify-email": confirmAddressPage,
  "check-email": checkEmailPage,
}

/** A password page's title and content, for the handler's page shell. */
export function passwordPage(name: PasswordPageName, props: PasswordPageProps, errorMessage: ErrorText): Rendered {
  return PAGES[name](props, errorMessage)
}
