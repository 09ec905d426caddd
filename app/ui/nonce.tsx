import { createContext, useContext } from 'react'

// The per-request CSP nonce. The server provides it; in the browser the attribute is
// hidden by the browser anyway, so an empty string is what hydration sees.
const NonceContext = createContext('')
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
