"use client"
// The session in the browser: useSession follows sign-in and sign-out in this tab and in others.
import { useAuthClient, useSession } from "latchkey/react"

export function UserStatus() {
  const { data, status } = useSession()
  const client = useAuthClient()
  if (status === "loading") return <p id="status">Loading…</p>
  if (!data) return <p id="status">Not signed in</p>
  return (
    <div>
      <p id="status">Signed in as {data.user?.name ?? "someone"}</p>
      <p id="email">{data.user?.email}</p>
      <button type="button" onClick={() => client.signOut({ redirectTo: "/" })}>
        Sign out (client)
      </button>
    </div>
  )
}
