import type { LayoutServerLoad } from "./$types"

// The session from the server, so the first render already shows it.
export const load: LayoutServerLoad = async ({ locals }) => ({ session: await locals.auth() })
