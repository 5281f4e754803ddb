// The corpus the tests read: the full shared data ($ROBOTSTXT_SHARED, or
// ../shared beside the repository) when it is there, and the committed
// sample tests/corpus-sample (same layout; tools/sample-corpus.py)
// otherwise, so that a bare clone tests too. Says which on import.

import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const shared = resolve(process.env.ROBOTSTXT_SHARED || join(repo, '..', 'shared'))

/** Whether the tests run on the full shared data rather than the sample. */
// The Makefile exports ROBOTSTXT_SHARED even when it does not exist.
export const full = existsSync(join(shared, 'bench', 'parse_files.tsv'))
/** The directory holding corpus/files/ and bench/. */
export const root = full ? shared : join(repo, 'tests', 'corpus-sample')

/** Rows of a workload TSV (bench/<name>) as objects keyed by the header. */
export function tsv (name) {
  const [header, ...rows] = readFileSync(join(root, 'bench', name), 'utf8').trimEnd().split('\n')
  const keys = header.split('\t')
  return rows.map((row) => Object.fromEntries(row.split('\t').map((v, i) => [keys[i], v])))
}

const files = tsv('parse_files.tsv')
console.log(full
  ? `corpus: full shared corpus (${files.length} files) at ${root}`
  : `corpus: committed sample tests/corpus-sample (${files.length} files); ` +
    `the full corpus is in ../shared (none at ${shared})`)

/** The largest file of kind `robots` (3.7 MB in the full corpus, 514 KB in
 * the sample; both past the parse limit): its name and bytes. */
export function largestRobots () {
  const row = files.filter((r) => r.kind === 'robots')
    .reduce((a, b) => (Number(b.bytes) > Number(a.bytes) ? b : a))
  const body = readFileSync(join(root, 'corpus', row.file))
  if (body.length !== Number(row.bytes)) {
    throw new Error(`${row.file}: ${body.length} bytes, parse_files.tsv says ${row.bytes}`)
  }
  return { file: row.file, body }
}
