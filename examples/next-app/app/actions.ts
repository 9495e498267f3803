"use server"
// Server actions. latchkey's signIn/signOut answer a result instead of throwing NEXT_REDIRECT, so
// app code may wrap them in try/catch; the redirect happens after it, where nothing can swallow it.
import { redirect } from "next/navigation"
import { signIn, signOut } from "../auth"

export async function signInWithDemo(): Promise<void> {
  const result = await signIn("demo", { redirectTo: "/" })
  redirect(result.url ?? "/auth/error?error=Configuration")
}

export async function signOutFromServer(): Promise<void> {
  let destination = "/"
  try {
    // A try/catch around the sign-out, as app code often has (logging, analytics, cleanup).
    const result = await signOut({ redirectTo: "/?signed-out=server" })
    if (!result.ok) throw new Error(`sign-out refused: ${result.error}`)
    destination = result.url
  } catch (error) {
    console.error("sign-out failed", error)
    return
  }
  redirect(destination)
}
