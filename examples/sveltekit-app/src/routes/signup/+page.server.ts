// latchkey's signUp form action, exported as it is: a 303 once the account exists and is signed
// in, or fail(status, { error, reason?, retryAfter? }) for this page to show.
import { signUp } from "../../auth"

export const actions = { default: signUp }
