// A page for signed-in users only. The proxy already turned signed-out visitors away; the page
// checks again with auth(): the proxy is an early check, and the page must not rely on it alone.
import { redirect } from "next/navigation"
import { auth } from "../../auth"
import { signOutFromServer } from "../actions"

export default async function Protected() {
  const session = await auth()
  if (!session) redirect("/auth/signin?callbackUrl=%2Fprotected")
  return (
    <main>
      <h1>Protected</h1>
      <p id="protected-user">Welcome, {session.user?.name}</p>
      <form action={signOutFromServer}>
        <button type="submit">Sign out (server action)</button>
      </form>
    </main>
  )
}
