'use strict'

// Preloaded (node --require) into the Windows Node under wine by
// test-node-cross.sh. wine 8.0 knows no TCP_KEEPALIVE socket option
// (IPPROTO_TCP 3: "Unknown IPPROTO_TCP optname"). libuv applies a
// keep-alive asked for before the connect during the connect, and fails
// the connect with it (UNKNOWN); fetch asks right after net.connect, so
// every fetch fails here, though not on Windows. Asked for once the socket
// is connected, libuv's failure is dropped (Node ignores it there), so the
// socket works without the keep-alive probes, which no test relies on.

const net = require('node:net')

const setKeepAlive = net.Socket.prototype.setKeepAlive
net.Socket.prototype.setKeepAlive = function (...args) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.apply(this, args))
    return this
  }
  return setKeepAlive.apply(this, args)
}
