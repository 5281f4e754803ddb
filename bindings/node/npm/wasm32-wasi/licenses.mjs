// licenses.mjs METAFILE OUT: THIRD-PARTY-LICENSES.md for the packages that
// esbuild bundled into the loaders (its metafile lists their files): each
// package's name, version, licence and licence text, as their licences
// ask of a copy.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const [metafile, out] = process.argv.slice(2)
const packages = new Map()
for (const input of Object.keys(JSON.parse(readFileSync(metafile, 'utf8')).inputs)) {
  const at = input.lastIndexOf('node_modules/')
  if (at < 0) continue
  const parts = input.slice(at + 13).split('/')
  const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
  packages.set(name, join(input.slice(0, at + 13), name))
}
const sections = [...packages].sort().map(([name, dir]) => {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f))
  const head = `## ${name} ${manifest.version} (${manifest.license})\n\n`
  if (file) return `${head}\`\`\`\n${readFileSync(join(dir, file), 'utf8').trim()}\n\`\`\`\n`
  // Some packages name their licence in package.json alone.
  const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name
  if (!manifest.license || !author) throw new Error(`${name}: no licence file and no licence or author in package.json`)
  return `${head}Licensed under ${manifest.license} by ${author} (${manifest.homepage ?? manifest.repository?.url}), ` +
    'as its package.json says; the package ships no licence file.\n'
})
if (sections.length === 0 || !existsSync(dirname(out))) throw new Error('nothing bundled, or no place to write')
writeFileSync(out, `# Third-party licences\n\nThe loaders of this package bundle these packages.\n\n${sections.join('\n')}`)
console.log(`licenses: ${[...packages.keys()].sort().join(', ')}`)
