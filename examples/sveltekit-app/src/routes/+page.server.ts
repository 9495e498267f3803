// latchkey's form actions, exported as they are: <form method="post" action="?/signin">.
import { signIn, signOut } from "../auth"

export const actions = { signin: signIn, signout: signOut }
