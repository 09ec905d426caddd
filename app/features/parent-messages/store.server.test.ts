import { describe, expect, it } from 'vitest'
import { saveSchoolDetails } from '#app/features/accounts/index.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { defaultTemplates, messageTemplatesOf, restoreMessageTemplates, saveMessageTemplates } from './store.server.ts'
import { arabicPlaceholders, messageKinds, placeholders } from './templates.ts'

// The default parent messages follow the school's setting: a boys' school's speak of a son, a
// girls' school's of a daughter and of the counsellor as a woman, as the school's letters do.

const testDb = setupTestDatabase()
silenceOutboxHints()

const usedPlaceholders = (text: string) => placeholders.filter((p) => text.includes(`{${arabicPlaceholders[p]}}`))

describe('the default templates of a boys’ and a girls’ school', () => {
  it('say the same thing with the same placeholders, each in its own grammar', () => {
    const boys = defaultTemplates('boys')
    const girls = defaultTemplates('girls')
    for (const kind of messageKinds) {
      expect(usedPlaceholders(girls.ar[kind])).toEqual(usedPlaceholders(boys.ar[kind]))
      expect(boys.ar[kind]).toMatch(/^ولي أمر الطالب \{اسم الطالب\}/)
      expect(girls.ar[kind]).toMatch(/^ولي أمر الطالبة \{اسم الطالب\}/)
      // Neither hedges with a slash; the girls’ never says "his".
      expect(`${boys.ar[kind]} ${girls.ar[kind]}`).not.toContain('/ة')
      expect(girls.ar[kind]).not.toMatch(/حالته(?!ا)|حثّه(?!ا)|الموجّه الطلابي|معه(?!ا)/)
      expect(girls.ar[kind]).toContain('حالتها')
      // English names the student and needs no second set.
      expect(girls.en[kind]).toBe(boys.en[kind])
    }
    expect(girls.ar.counsellorReferral).toContain('الموجّهة الطلابية')
    expect(boys.ar.counsellorReferral).toContain('الموجّه الطلابي')
    expect(defaultTemplates()).toEqual(boys)
  })
})

describe('a teacher’s templates', () => {
  it('are her school’s defaults until she saves her own, which then stay as typed; restoring gives her school’s again', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    const db = ctx.db
    expect(await messageTemplatesOf({ db, userId: user.id })).toEqual(defaultTemplates('boys'))

    await saveSchoolDetails({
      db,
      files: ctx.files,
      userId: user.id,
      input: { school_name: 'ثانوية النور', students: 'girls' },
      logo: null,
    })
    expect(await messageTemplatesOf({ db, userId: user.id })).toEqual(defaultTemplates('girls'))

    const own = { ...defaultTemplates('girls'), ar: { ...defaultTemplates('girls').ar, sameDay: 'غابت {student} اليوم {dates}. {school}' } }
    await saveMessageTemplates({ db, userId: user.id, templates: own })
    await saveSchoolDetails({ db, files: ctx.files, userId: user.id, input: { school_name: 'ثانوية النور', students: 'boys' }, logo: null })
    expect((await messageTemplatesOf({ db, userId: user.id })).ar.sameDay).toBe('غابت {student} اليوم {dates}. {school}')

    expect(await restoreMessageTemplates({ db, userId: user.id })).toEqual(defaultTemplates('boys'))
    expect(await messageTemplatesOf({ db, userId: user.id })).toEqual(defaultTemplates('boys'))
  })
})
