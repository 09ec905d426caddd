import type { Auth, Contract, JsonSchema } from './contract.ts'
import type { OpenApiDocument } from './openapi.ts'

// The API's reference as one server-rendered page (/api/v1/docs): the OpenAPI document read for
// people, every operation with its parameters, body and answers, then the named schemas. No
// scripts and no outside files (the CSP), readable in both colour modes.

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
/** `code` spans in the descriptions, the rest escaped. */
const prose = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>')
const anchor = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? ''
    return `<a href="#schema-${anchor(name)}">${escapeHtml(name)}</a>`
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key]
    if (key === 'allOf' && typeof schema.type === 'string') break
    if (Array.isArray(list)) return list.map((s: JsonSchema) => typeOf(s)).join(key === 'allOf' ? ' &amp; ' : ' | ')
  }
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ')
  if (schema.type === 'array') return `array of ${typeOf((schema.items as JsonSchema | undefined) ?? {})}`
  if (schema.type === 'string' && schema.format === 'binary') return 'file'
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : ''
  if (typeof schema.type === 'string') return escapeHtml(schema.type + format)
  // A nullable scalar: ["string", "null"].
  if (Array.isArray(schema.type)) return schema.type.map((t) => escapeHtml(String(t) + (t === 'string' ? format : ''))).join(' | ')
  return 'any'
}

function constraints(schema: JsonSchema): string {
  const parts: string[] = []
  const labels: Record<string, string> = {
    minLength: 'min length',
    maxLength: 'max length',
    minimum: 'min',
    maximum: 'max',
    exclusiveMinimum: '>',
    minItems: 'min items',
    maxItems: 'max items',
    pattern: 'pattern',
    default: 'default',
  }
  for (const [key, label] of Object.entries(labels)) {
    const value = schema[key]
    // z.int()'s safe-integer bounds say nothing a reader needs.
    if (
      value === undefined ||
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue
    // A format (uuid, email, date-time) says in a word what its generated pattern spells out.
    if (key === 'pattern' && typeof schema.format === 'string') continue
    parts.push(`${label} <code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`)
  }
  for (const part of (schema.allOf as JsonSchema[] | undefined) ?? [])
    if (typeof part.pattern === 'string') parts.push(`pattern <code>${escapeHtml(part.pattern)}</code>`)
  if (typeof schema.description === 'string') parts.unshift(prose(schema.description))
  return parts.join('; ')
}

/** An object's fields as a table; nested objects (not references) in their own rows below. */
function schemaHtml(schema: JsonSchema, depth = 0): string {
  const props = schema.properties as Record<string, JsonSchema> | undefined
  if (!props || depth > 4) {
    const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined
    if (variants && variants.some((v) => v.properties)) return variants.map((v) => `<p>One of:</p>${schemaHtml(v, depth + 1)}`).join('')
    return `<p>${typeOf(schema)}${constraints(schema) ? ` — ${constraints(schema)}` : ''}</p>`
  }
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const rows = Object.entries(props).map(([name, p]) => {
    // An object's own fields below it, also when it may be null (anyOf object | null) or is an array's item.
    const inner =
      ((p.anyOf ?? p.oneOf) as JsonSchema[] | undefined)?.find((v) => v.properties) ??
      (p.type === 'array' ? (p.items as JsonSchema | undefined) : undefined)
    const nested = p.properties ? schemaHtml(p, depth + 1) : inner?.properties ? schemaHtml(inner, depth + 1) : ''
    return `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td>${typeOf(p)}${nested}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${constraints(p)}</td></tr>`
  })
  return `<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

/** The fields of a referenced request schema, shown where it is used. */
function refTable(schema: JsonSchema, schemas: Record<string, JsonSchema>): string {
  if (typeof schema.$ref !== 'string') return ''
  const target = schemas[schema.$ref.split('/').pop() ?? '']
  return target?.properties ? schemaHtml(target) : ''
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1a1a1a;--bg:#fff;--muted:#555;--line:#d0d0d0;--code:#f3f3f3;--accent:#0b5c3b}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#121212;--muted:#bbb;--line:#444;--code:#1f1f1f;--accent:#6fd3a6}}
body{font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0}
main{max-width:70rem;margin:0 auto;padding:1rem 1.5rem 4rem}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
code{background:var(--code);padding:0 .25em;border-radius:3px;font-size:.92em}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:start;vertical-align:top}
section.op{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1.5rem}
.method{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
.muted{color:var(--muted)}
nav>ul{columns:3 18rem}nav>ul>li{break-inside:avoid;margin-bottom:.5rem}
`

export function renderDocsHtml(contracts: readonly Contract[], doc: OpenApiDocument): string {
  const byTag = new Map<string, Contract[]>()
  for (const op of contracts) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op])
  const opId = (op: Contract) => `op-${op.method}-${anchor(op.path)}`
  const authText: Record<Auth, string> = {
    none: 'None',
    optional: 'Bearer token, optional',
    bearer: 'Bearer token',
    subscriber: 'Bearer token, active subscription',
    webhook: 'Gateway signature',
    operator: 'Bearer token of an operator with two-step verification on',
  }
  const nav = [...byTag].map(
    ([tag, ops]) =>
      `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a><ul>${ops.map((op) => `<li><a href="#${opId(op)}">${op.method.toUpperCase()} ${escapeHtml(op.path)}</a></li>`).join('')}</ul></li>`,
  )
  const sections = [...byTag].map(([tag, ops]) => {
    const body = ops.map((op) => {
      const o = doc.paths[op.path]?.[op.method] as {
        parameters: JsonSchema[]
        requestBody?: { content: Record<string, { schema: JsonSchema }> }
        responses: Record<string, JsonSchema>
        description?: string
      }
      const params = o.parameters.filter((p) => !p.$ref)
      const paramsHtml = params.length
        ? `<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${params
            .map(
              (p) =>
                `<tr><th scope="row"><code>${escapeHtml(String(p.name))}</code></th><td>${escapeHtml(String(p.in))}</td><td>${typeOf(p.schema as JsonSchema)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${prose(String(p.description ?? ''))}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : ''
      const bodyHtml = o.requestBody
        ? `<h4>Request body</h4>${Object.entries(o.requestBody.content)
            .map(
              ([type, c]) => `<p><code>${escapeHtml(type)}</code></p>${schemaHtml(c.schema)}${refTable(c.schema, doc.components.schemas)}`,
            )
            .join('')}`
        : ''
      const responsesHtml = Object.entries(o.responses)
        .map(([status, r]) => {
          if (typeof r.$ref === 'string') {
            const name = r.$ref.split('/').pop() ?? ''
            const shared = (doc.components.responses as Record<string, JsonSchema>)[name]
            return `<li><strong>${status}</strong> ${prose(String(shared?.description ?? name))}</li>`
          }
          const content = (r.content ?? {}) as Record<string, { schema?: JsonSchema }>
          const shape = Object.entries(content)
            .map(
              ([type, c]) =>
                `<p><code>${escapeHtml(type)}</code></p>${c.schema && type === 'application/json' ? schemaHtml(c.schema) : ''}`,
            )
            .join('')
          return `<li><strong>${status}</strong> ${escapeHtml(String(r.description))}${shape}</li>`
        })
        .join('')
      return `<section class="op" id="${opId(op)}" aria-labelledby="${opId(op)}-h"><h3 id="${opId(op)}-h"><span class="method">${op.method}</span> <code>${escapeHtml(op.path)}</code></h3>
<p>${escapeHtml(op.summary)}.${o.description ? ` ${prose(o.description)}` : ''}</p>
<p><span class="muted">Authentication:</span> ${authText[op.auth]}</p>${paramsHtml}${bodyHtml}<h4>Responses</h4><ul>${responsesHtml}</ul></section>`
    })
    return `<section id="tag-${anchor(tag)}" aria-labelledby="tag-${anchor(tag)}-h"><h2 id="tag-${anchor(tag)}-h">${escapeHtml(tag)}</h2>${body.join('\n')}</section>`
  })
  const schemas = Object.entries(doc.components.schemas).map(
    ([name, schema]) =>
      `<section id="schema-${anchor(name)}" aria-labelledby="schema-${anchor(name)}-h"><h3 id="schema-${anchor(name)}-h">${escapeHtml(name)}</h3>${schemaHtml(schema)}</section>`,
  )
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} reference</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#content">Skip to the reference</a>
<main id="content">
<h1>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}</h1>
<p>${prose(doc.info.description)}</p>
<p>Base URL: <code>${escapeHtml(doc.servers[0]?.url ?? '')}</code>. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<nav aria-label="Endpoints"><h2>Endpoints</h2><ul>${nav.join('')}<li><a href="#schemas">Schemas</a></li></ul></nav>
${sections.join('\n')}
<section id="schemas" aria-labelledby="schemas-h"><h2 id="schemas-h">Schemas</h2>${schemas.join('\n')}</section>
</main>
</body>
</html>`
}
