/**
 * The small pages: the error page, "check your email", and the sign-out confirmation.
 */
import type { AuthTheme } from "../options.js"
import { errorMessage } from "../errors.js"
import { button, escapeHtml, hidden, page } from "./layout.js"

/** The error page for a client error code; `hint`, in development, says where to look for the cause. */
export function errorPage(code: string | null, signInUrl: string, theme?: AuthTheme, hint?: string): string {
  const message = errorMessage(code)
  const developer = hint === undefined ? "" : `<p class="hint"><small>${escapeHtml(hint)}</small></p>`
  return page("Sign-in error", `<h1>Sign-in error</h1><p role="alert">${escapeHtml(message)}</p>${developer}<p><a href="${escapeHtml(signInUrl)}">Back to sign in</a></p>`, theme)
}

/** The page shown after an email link was sent. */
export function verifyRequestPage(theme?: AuthTheme): string {
  return page("Check your email", "<h1>Check your email</h1><p>A sign-in link has been sent to your email address. It can be used once.</p>", theme)
}

/** The sign-out confirmation, posting back with the CSRF token. */
export function signOutPage(action: string, csrfToken: string, callbackUrl: string | undefined, theme?: AuthTheme): string {
  const form = `<form method="post" action="${escapeHtml(action)}">${hidden({ csrfToken, callbackUrl })}${button("Sign out")}</form>`
  return page("Sign out", `<h1>Sign out</h1><p>Are you sure you want to sign out?</p>${form}`, theme)
}
