// A route handler reading the session with auth(), no request argument needed.
import { auth } from "../../../auth"

export async function GET() {
  const session = await auth()
  if (!session) return Response.json({ error: "Sign in first" }, { status: 401 })
  return Response.json({ name: session.user?.name, email: session.user?.email })
}
