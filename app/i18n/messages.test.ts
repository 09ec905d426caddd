import { describe, expect, it } from 'vitest'
import { catalogue, getMessages } from './messages.server.ts'

describe('getMessages', () => {
  it('sends whole namespaces as they are in the catalogue', () => {
    const messages = getMessages('ar', ['common', 'home'])
    expect(Object.keys(messages)).toEqual(['common', 'home'])
    expect(messages.home).toBe(catalogue.ar.home)
  })

  it('sends only the named part of a namespace, leaving the catalogue whole', () => {
    const accounts = catalogue.en.accounts as Record<string, unknown>
    const keysBefore = Object.keys(accounts)
    const messages = getMessages('en', ['accounts.rates', 'accounts.errors.rating'])
    const sent = messages.accounts as Record<string, Record<string, unknown>>
    expect(Object.keys(sent)).toEqual(['rates', 'errors'])
    expect(sent.rates).toEqual(accounts.rates)
    expect(Object.keys(sent.errors!)).toEqual(['rating'])
    expect(sent.errors!.rating).toBe((accounts.errors as Record<string, unknown>).rating)
    expect(Object.keys(accounts)).toEqual(keysBefore)
    expect(Object.keys(accounts.errors as object).length).toBeGreaterThan(1)
  })

  it('does not narrow a namespace that is also asked for whole', () => {
    expect(getMessages('ar', ['accounts', 'accounts.rates']).accounts).toBe(catalogue.ar.accounts)
    expect(getMessages('ar', ['accounts.rates', 'accounts']).accounts).toBe(catalogue.ar.accounts)
  })

  it('refuses names that are not in the catalogue', () => {
    expect(() => getMessages('ar', ['nope'])).toThrow('Unknown locale namespace "nope"')
    expect(() => getMessages('ar', ['accounts.nope'])).toThrow('Unknown locale messages "accounts.nope"')
  })
})
