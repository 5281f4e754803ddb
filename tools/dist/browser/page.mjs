// The page's script: fetches the vector files from the server, runs the
// checks here and in a module Web Worker, and leaves both results in
// `window.robotstxtResult` for run.mjs to read.
import { runChecks } from './checks.mjs'

async function main () {
  const names = await (await fetch('/vectors/')).json()
  const files = {}
  for (const name of names) files[name] = await (await fetch(`/vectors/${name}`)).json()
  const page = runChecks(files)
  const worker = await new Promise((resolve, reject) => {
    const w = new Worker('./worker.js', { type: 'module' })
    // Its first message says it has loaded (the package's top-level await
    // done): one sent before could find no handler yet.
    w.onmessage = (event) => {
      if (event.data === 'ready') w.postMessage(files)
      else resolve(event.data)
    }
    w.onerror = (event) => reject(new Error(`worker: ${event.message}`))
  })
  return { page, worker }
}

main().then(
  (result) => { window.robotstxtResult = result },
  (error) => { window.robotstxtResult = { error: String(error?.stack ?? error) } }
)
