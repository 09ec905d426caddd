import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from '#app/lib/zod.ts'
import { parseS3Url, type S3Credentials, type S3Location } from './file-store-url.server.ts'

// The one place that reads process.env. Everything else receives an `Env`.

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional())
const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
)

const schema = z
  .object({
    NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
    HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
    APP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    TRUST_PROXY: booleanFlag,
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
        .optional(),
    ),
    /** Where stored files go: s3://… (object storage), `postgres` or `local`; unset: see fileStoreOf. */
    FILE_STORE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine(
          (v) => v === 'local' || v === 'postgres' || v.startsWith('s3://'),
          'must be s3://bucket?endpoint=…&region=…, postgres or local',
        )
        .superRefine((v, ctx) => {
          if (!v.startsWith('s3://')) return
          try {
            parseS3Url(v)
          } catch (error) {
            ctx.addIssue({ code: 'custom', message: (error as Error).message })
          }
        })
        .optional(),
    ),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    DATABASE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(10)),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
        .optional(),
    ),
    MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Hallil <no-reply@hallil.local>')),
    MAIL_OUTBOX_DIR: optionalString,
    SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    /** Days a web session or API token may go unused before it is refused and revoked (ASVS 7.3.1); at most the 30-day lifetime. */
    SESSION_IDLE_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(30).default(7)),
    PAYMENT_GATEWAY: z.preprocess(emptyToUndefined, z.enum(['sandbox', 'moyasar']).optional()),
    PAYMENT_METHODS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('mada,creditcard,applepay,stcpay')
        .transform((v) => [
          ...new Set(
            v
              .split(',')
              .map((m) => m.trim())
              .filter(Boolean),
          ),
        ])
        .pipe(
          z
            .array(z.enum(['mada', 'creditcard', 'applepay', 'stcpay']), {
              error: 'must list mada, creditcard, applepay or stcpay, separated by commas',
            })
            .min(1, 'must name at least one method'),
        ),
    ),
    MOYASAR_SECRET_KEY: z.preprocess(
      emptyToUndefined,
      z.string().trim().regex(/^sk_/, 'must be the secret key (sk_test_… or sk_live_…)').optional(),
    ),
    // A secret key here would be sent to every browser: only a pk_… key is accepted.
    MOYASAR_PUBLISHABLE_KEY: z.preprocess(
      emptyToUndefined,
      z.string().trim().regex(/^pk_/, 'must be the publishable key (pk_test_… or pk_live_…)').optional(),
    ),
    MOYASAR_WEBHOOK_SECRET: optionalString,
    MOYASAR_API_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default('https://api.moyasar.com')),
    VAT_RATE: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(100).default(15)),
    SELLER_NAME_AR: z.preprocess(emptyToUndefined, z.string().default('مؤسسة حلّل للخدمات التعليمية')),
    SELLER_NAME_EN: z.preprocess(emptyToUndefined, z.string().default('Hallil Educational Services')),
    SELLER_ADDRESS_AR: z.preprocess(emptyToUndefined, z.string().default('الرياض، المملكة العربية السعودية')),
    SELLER_ADDRESS_EN: z.preprocess(emptyToUndefined, z.string().default('Riyadh, Saudi Arabia')),
    SELLER_VAT_NUMBER: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^3\d{13}3$/, 'must be the 15-digit VAT number (starts and ends with 3)')
        .optional(),
    ),
    SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().default('support@hallil.sa')),
    SUPPORT_PHONE: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^\+?[0-9 ]{7,20}$/, 'must be a phone number')
        .default('+966 11 000 0000'),
    ),
    SUPPORT_WHATSAPP: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^\+?[0-9]{7,15}$/, 'must be digits, e.g. +966500000000')
        .default('+966500000000'),
    ),
    // Workbook uploads (absence and grades): docs/absence.md's limits, configurable.
    ANALYSIS_MAX_UPLOAD_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(100).default(10)),
    ANALYSIS_MAX_UNCOMPRESSED_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(2000).default(200)),
    ANALYSIS_MAX_ROWS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().max(1_048_576).default(500_000)),
    /** Worksheets in one uploaded workbook (a report-card workbook has one per student). */
    ANALYSIS_MAX_SHEETS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(1000)),
    ANALYSIS_TIME_BUDGET_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(60_000)),
    /** Uploads per teacher per hour. */
    ANALYSIS_UPLOADS_PER_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(60)),
    /** PDF and Excel exports (analyses, tests, invoices) per teacher per hour. */
    EXPORTS_PER_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(120)),
    /**
     * The bearer token Prometheus sends to read GET /metrics. Unset, /metrics answers 404: the
     * figures (routes, pools, failures) are for the operator only.
     */
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().trim().min(24, 'must be at least 24 characters').optional()),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
    /**
     * Whether React pages paint before their modules load (decisions 013 and 016): `pages` as each
     * page chooses, `always` or `never` for every page (to measure one against the other).
     */
    PAINT_FIRST: z.preprocess(emptyToUndefined, z.enum(['pages', 'always', 'never']).default('pages')),
  })
  .superRefine((env, ctx) => {
    // Moyasar cannot take or check a payment without all three; refuse at start-up, not at checkout.
    if (env.PAYMENT_GATEWAY === 'moyasar')
      for (const key of ['MOYASAR_SECRET_KEY', 'MOYASAR_PUBLISHABLE_KEY', 'MOYASAR_WEBHOOK_SECRET'] as const)
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENT_GATEWAY=moyasar' })
    if (env.FILE_STORE_URL === 'postgres' && !env.DATABASE_URL)
      ctx.addIssue({ code: 'custom', path: ['FILE_STORE_URL'], message: 'postgres needs DATABASE_URL' })
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'is required with the other S3 key',
      })
    if (env.NODE_ENV !== 'production') return
    // The sandbox accepts test cards: production runs it only when the operator says so.
    if (!env.PAYMENT_GATEWAY)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_GATEWAY'],
        message: 'is required in production: moyasar, or sandbox to take no real payments',
      })
    if (!env.SESSION_SECRET) ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' })
    if (!env.APP_URL) ctx.addIssue({ code: 'custom', path: ['APP_URL'], message: 'is required in production' })
    if (!env.SELLER_VAT_NUMBER) ctx.addIssue({ code: 'custom', path: ['SELLER_VAT_NUMBER'], message: 'is required in production' })
  })

export type Env = Omit<z.infer<typeof schema>, 'APP_URL' | 'SESSION_SECRET' | 'SELLER_VAT_NUMBER' | 'PAYMENT_GATEWAY'> & {
  APP_URL: string
  SESSION_SECRET: string
  SELLER_VAT_NUMBER: string
  PAYMENT_GATEWAY: 'sandbox' | 'moyasar'
  MAIL_OUTBOX_DIR: string
  /** The store chosen for files (fileStoreOf). */
  FILE_STORE: FileStoreChoice
  /** VAT rate in basis points (15% = 1500), so money arithmetic stays in integers. */
  VAT_RATE_BP: number
  isProduction: boolean
}

/**
 * Which store keeps files: FILE_STORE_URL when set; else PostgreSQL when DATABASE_URL is set (so a
 * deployment with a database needs nothing else); else the folder DATA_DIR/files (embedded).
 */
export type FileStoreChoice =
  { kind: 'local'; dir: string } | { kind: 'postgres' } | { kind: 's3'; location: S3Location; credentials?: S3Credentials }

function fileStoreOf(
  raw: { FILE_STORE_URL?: string; DATABASE_URL?: string; S3_ACCESS_KEY_ID?: string; S3_SECRET_ACCESS_KEY?: string },
  dataDir: string,
): FileStoreChoice {
  const url = raw.FILE_STORE_URL ?? (raw.DATABASE_URL ? 'postgres' : 'local')
  if (url === 'local') return { kind: 'local', dir: path.join(dataDir, 'files') }
  if (url === 'postgres') return { kind: 'postgres' }
  const credentials =
    raw.S3_ACCESS_KEY_ID && raw.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: raw.S3_ACCESS_KEY_ID, secretAccessKey: raw.S3_SECRET_ACCESS_KEY }
      : undefined
  return { kind: 's3', location: parseS3Url(url), ...(credentials ? { credentials } : {}) }
}

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'EnvError'
  }
}

/** Parses the environment once. Throws an EnvError naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source)
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'} ${issue.message}`))
  }
  const raw = parsed.data
  const dataDir = path.resolve(raw.DATA_DIR)
  return {
    ...raw,
    DATA_DIR: dataDir,
    APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    MAIL_OUTBOX_DIR: path.resolve(raw.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    SESSION_SECRET: raw.SESSION_SECRET ?? localSessionSecret(dataDir),
    SELLER_VAT_NUMBER: raw.SELLER_VAT_NUMBER ?? '300000000000003',
    PAYMENT_GATEWAY: raw.PAYMENT_GATEWAY ?? 'sandbox',
    MOYASAR_API_URL: raw.MOYASAR_API_URL.replace(/\/+$/, ''),
    FILE_STORE: fileStoreOf(raw, dataDir),
    VAT_RATE_BP: Math.round(raw.VAT_RATE * 100),
    isProduction: raw.NODE_ENV === 'production',
  }
}

/** Outside production a secret is generated once and kept in the data folder. */
function localSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret')
  if (existsSync(file)) {
    const existing = readFileSync(file, 'utf8').trim()
    if (existing.length >= 32) return existing
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}
