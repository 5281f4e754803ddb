// The Web Worker's script: the same checks in a worker's global scope.
import { runChecks } from './checks.mjs'

self.onmessage = (event) => {
  try {
    self.postMessage(runChecks(event.data))
  } catch (error) {
    self.postMessage({ error: String(error?.stack ?? error) })
  }
}
self.postMessage('ready')
