import { redirect } from "@sveltejs/kit"
import { signOut } from "../../auth"
import type { PageServerLoad } from "./$types"

// For signed-in users only: locals.auth() reads the session (once per request).
export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session) redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent(url.pathname)}`)
  return { user: session.user }
}

export const actions = { signout: signOut }
