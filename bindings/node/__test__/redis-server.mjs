// A real Redis server for a test file: Debian's redis-server that `make
// redis` unpacks under build/redis (or $ROBOTSTXT_REDIS_SERVER), on
// 127.0.0.1 and a free port, stopped by its pid.

import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

export const REDIS_SERVER = process.env.ROBOTSTXT_REDIS_SERVER ||
  join(here, '..', '..', '..', 'build', 'redis', 'redis-server')

function freePort () {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

// Ready means it answered a PING: a server just started can reset its
// first client.
function listening (port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    const done = (ready) => {
      socket.destroy()
      resolve(ready)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      if (answer.length >= 7) done(answer.startsWith('+PONG\r\n'))
    })
    socket.once('error', () => done(false))
    socket.once('close', () => done(answer.startsWith('+PONG\r\n')))
  })
}

/** Starts a server: `{ port, url, stop() }`; `stop` resolves once it exited. */
export async function startRedis (port) {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(`no redis-server at ${REDIS_SERVER}: run \`make redis\` first (make test does)`)
  }
  port ??= await freePort()
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
    '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 10_000
  while (!(await listening(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL')
      throw new Error(`redis-server did not listen on ${port}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}/`,
    pid: child.pid,
    async stop () {
      if (child.exitCode === null) child.kill('SIGKILL')
      await exited
    }
  }
}
