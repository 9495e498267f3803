// Requests under /auth go to latchkey's handler; every other request gets locals.auth().
export { handle } from "./auth"
