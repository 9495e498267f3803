import Link from "next/link"
import { signInWithDemo } from "./actions"
import { UserStatus } from "./user-status"

export default function Home() {
  return (
    <main>
      <h1>latchkey + Next.js</h1>
      <UserStatus />
      <form action={signInWithDemo}>
        <button type="submit">Sign in with Demo (server action)</button>
      </form>
      <p>
        <Link href="/protected">Protected page</Link>
      </p>
    </main>
  )
}
