/**
 * Sign-up: `POST password/sign-up`. The password is checked against the rules and hashed, and the
 * app's `signUp` callback has its say, before the address is looked up, so a new and a taken address
 * cost the same. A taken address answers exactly as a new one ("check your email"); its owner is
 * mailed a notice instead of a link, or, when the app allows linking and the user has no password
 * yet, a link to set one (nothing joins an existing user until the address is proven). A new user
 * is written with its hash, or not at all: a failed hash write deletes the user again. An address
 * the store's collation folds into another user's answers as a new one, and no user is written.
 */
import type { AdapterUser } from "../adapters/adapter.js"
import type { User } from "../types.js"
import { addressOf, checkEmailUrl, refuse, routeUrl, send, siteOf } from "./answers.js"
import { mailLink, newPasswordHash, userOfAddress, type RouteContext } from "./context.js"
import { mails } from "./mail.js"

/** Fields a sign-up never takes from the form or the callback. */
const RESERVED = new Set(["id", "email", "emailVerified", "password"])
const MAX_FIELD = 1000

/** The declared app fields as submitted; undefined when a required one is missing. */
function appFields(route: RouteContext, form: URLSearchParams): Record<string, string> | undefined {
  const fields: Record<string, string> = {}
  for (const field of route.provider.signUpFields) {
    const value = form.get(field.name)?.trim()
    if (!value) {
      if (field.required) return undefined
      continue
    }
    if (!RESERVED.has(field.name)) fields[field.name] = value.slice(0, MAX_FIELD)
  }
  return fields
}

function withoutReserved(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !RESERVED.has(name)))
}

/** Creates the user and stores its hash; a failed hash write deletes the user (and rethrows). */
async function createWithPassword(route: RouteContext, fields: Omit<AdapterUser, "id">, hash: string): Promise<AdapterUser> {
  const { adapter, host } = route
  const user = await adapter.createUser({ ...fields, id: crypto.randomUUID() })
  try {
    await adapter.setUserPassword(user.id, hash)
  } catch (error) {
    try {
      await adapter.deleteUser(user.id)
    } catch (undo) {
      host.logger.error(new Error(`a sign-up's user could not be deleted after its password failed to store (${undo instanceof Error ? undo.name : "error"}); delete user ${user.id}`))
    }
    throw error
  }
  await host.fireEvent("createUser", { user })
  return user
}

/** What a taken address gets: a link to set a password (linking allowed, none yet), else a notice. */
async function mailOwner(route: RouteContext, owner: AdapterUser, email: string): Promise<void> {
  if (route.provider.allowLinkingToExistingUser && !(await route.adapter.getUserPassword(owner.id))) return mailLink(route, "reset", owner, email)
  await send(route.host, route.provider, mails.signUpNotice(email, siteOf(route.host)))
}

/**
 * What a new address gets, for one the store's collation folds into another user's (`lookAlike`):
 * the other user is not this address's, so its owner is not told about it; and no user can be
 * written (a unique index under that collation refuses it, and a look-up would answer the other
 * one). So the verification link names a user who does not exist, and answers as an expired link.
 */
async function answerAsNew(route: RouteContext, email: string, callbackUrl: string | null): Promise<Response> {
  if (route.provider.requireEmailVerification) await mailLink(route, "verify-email", { id: crypto.randomUUID(), email, emailVerified: null }, email, callbackUrl)
  return route.host.go(checkEmailUrl(route.host, "verify-email"))
}

export async function passwordSignUp(route: RouteContext, form: URLSearchParams): Promise<Response> {
  const { host, provider } = route
  const back = routeUrl(host, "password/sign-up", { callbackUrl: form.get("callbackUrl") })
  if (!provider.allowSignUp) return refuse(host, "SignUpDisabled", back)
  const email = addressOf(provider, form.get("email"))
  const fields = appFields(route, form)
  if (!email || !fields) return refuse(host, "InvalidRequest", back)
  const hash = await newPasswordHash(route, form.get("password"), back)
  if (hash instanceof Response) return hash
  const name = form.get("name")?.trim().slice(0, MAX_FIELD) || undefined
  const extra = provider.signUp ? await provider.signUp({ email, name, fields }) : fields
  if (extra === false) return refuse(host, "AccessDenied", back)
  const { user: owner, lookAlike } = await userOfAddress(route, email)
  if (lookAlike) return answerAsNew(route, email, form.get("callbackUrl"))
  if (owner) {
    await mailOwner(route, owner, email)
    return host.go(checkEmailUrl(host, "verify-email"))
  }
  const user = await createWithPassword(route, { ...(name === undefined ? {} : { name }), ...withoutReserved(extra ?? {}), email, emailVerified: null }, hash)
  if (provider.requireEmailVerification) {
    await mailLink(route, "verify-email", user, email, form.get("callbackUrl"))
    return host.go(checkEmailUrl(host, "verify-email"))
  }
  return host.asAnswer(await host.completeSignIn({ user: user as User, providerId: provider.id, isNewUser: true, callbackUrl: form.get("callbackUrl") }))
}
