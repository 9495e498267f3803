/**
 * The password pages: sign-up, forgot, reset and "check your email". Minimal forms that post to the
 * password routes with the CSRF token; their look follows the other pages' layout.
 */
import type { AuthTheme } from "../options.js"
import { errorMessage } from "../errors.js"
import { button, escapeHtml, hidden, page } from "./layout.js"

/** The password pages. */
export type PasswordPageName = "sign-up" | "forgot" | "reset" | "check-email"

/** What a password page shows and where its form posts. */
export interface PasswordPageProps {
  action: string
  csrfToken: string
  callbackUrl?: string
  error?: string
  email?: string
  token?: string
  kind?: "verify-email" | "reset" | "change-email"
  fields?: { name: string; label: string; type?: string; required?: boolean }[]
  signInUrl: string
  forgotUrl?: string
  signUpUrl?: string
}

function input(name: string, label: string, type: string, attributes = "", value?: string): string {
  const filled = value === undefined ? "" : ` value="${escapeHtml(value)}"`
  return `<label>${escapeHtml(label)}<input name="${escapeHtml(name)}" type="${escapeHtml(type)}"${filled} ${attributes}></label>`
}

const TITLES: Record<PasswordPageName, string> = { "sign-up": "Create an account", forgot: "Forgot your password?", reset: "Choose a new password", "check-email": "Check your email" }

const CHECK: Record<NonNullable<PasswordPageProps["kind"]>, string> = {
  "verify-email": "We sent a link to your email address. Open it to finish signing up.",
  reset: "If an account uses that address, we sent it a link to choose a new password.",
  "change-email": "We sent a link to the new address. Your email changes when you open it.",
}

function body(name: PasswordPageName, props: PasswordPageProps): string {
  if (name === "check-email") return `<p>${escapeHtml(CHECK[props.kind ?? "verify-email"])}</p>`
  const fields =
    name === "sign-up"
      ? input("email", "Email", "email", 'required autocomplete="email"', props.email) +
        input("name", "Name", "text", 'autocomplete="name"') +
        (props.fields ?? []).map((field) => input(field.name, field.label, field.type ?? "text", field.required ? "required" : "")).join("") +
        input("password", "Password", "password", 'required autocomplete="new-password"')
      : name === "forgot"
        ? input("email", "Email", "email", 'required autocomplete="email"', props.email)
        : hidden({ token: props.token, email: props.email }) + input("password", "New password", "password", 'required autocomplete="new-password"')
  const label = name === "sign-up" ? "Sign up" : name === "forgot" ? "Send reset link" : "Set password"
  return `<form method="post" action="${escapeHtml(props.action)}">${hidden({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl })}${fields}${button(label)}</form>`
}

/** One password page as HTML. */
export function passwordPage(name: PasswordPageName, props: PasswordPageProps, theme: AuthTheme | undefined): string {
  const error = props.error ? `<p role="alert">${escapeHtml(errorMessage(props.error))}</p>` : ""
  return page(TITLES[name], `<h1>${escapeHtml(TITLES[name])}</h1>${error}${body(name, props)}<p><a href="${escapeHtml(props.signInUrl)}">Back to sign in</a></p>`, theme)
}
