// Writes .br and .gz beside every built text asset, so they are served compressed without
// compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = path.resolve('build/client')
const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/

function* walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) yield* walk(full)
    else yield full
  }
}

let files = 0
for (const file of walk(root)) {
  if (!compressible.test(file)) continue
  const content = readFileSync(file)
  if (content.length < 512) continue
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }))
  files++
}
console.log(`precompressed ${files} files`)
