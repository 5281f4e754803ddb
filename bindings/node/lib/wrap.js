'use strict'

// What the package entry does to a binding, the native addon's or the
// WebAssembly build's (the two have the same exports): every class gets
// `[Symbol.dispose]` (its `close()`, for `using`), a method called on a
// wrong `this` throws a TypeError, and Rules' hot calls go through module
// functions on a handle: a method call on a native object costs an unwrap
// and a type-tag check, most of a single check's time from JavaScript; a
// module function given the rules' handle (a number naming a slot of a
// native table) does not. `rulesFor` and its siblings make their Rules
// here, around such a handle: making a native object costs some 3 µs, ten
// times the selection. On the WebAssembly build, `isAllowed` and
// `filterAllowed` skip emnapi too (see `direct`).

const wrapped = new WeakSet()

/** Gives `binding`'s classes the package entry's behaviour, once. */
module.exports = function wrap (binding) {
  if (wrapped.has(binding)) return
  wrapped.add(binding)
  // The native getter, called on `rules` itself: it throws, as a native
  // method does, when `rules` is not a Rules (a plain read of `_handle`
  // would give undefined instead).
  const handleGetter = Object.getOwnPropertyDescriptor(binding.Rules.prototype, '_handle').get

  const CLASSES = ['Robots', 'Rules', 'Cache', 'Lease', 'CachedAnswer', 'Pacer', 'Ticket', 'Entry']

  /** Takes the native method `member` off its prototype (for this file alone). */
  function takeNative (className, member) {
    const proto = binding[className].prototype
    const native = proto[member]
    delete proto[member]
    return native
  }

  // The selections that hand out a handle for the package entry to make its
  // Rules around, each as [class, method, its native handle twin].
  const SELECTIONS = [
    ['Robots', 'rulesFor'], ['Robots', 'rulesForAny'], ['Robots', 'rulesForStrictest'],
    ['CachedAnswer', 'rulesFor']
  ].map(([className, member]) => [className, member, takeNative(className, `_${member}Handle`)])
  const setRulesHandle = takeNative('Pacer', '_setRulesHandle')

  function describe (value) {
    if (value === undefined) return 'undefined'
    if (value === null) return 'null'
    if (Array.isArray(value)) return 'an array'
    const type = typeof value
    let name
    try {
      // A class instance by its class's name; reading may throw (a Proxy).
      if (type === 'object' && value.constructor !== Object) name = value.constructor?.name
    } catch {}
    if (typeof name !== 'string' || name === '') return type === 'object' ? 'an object' : `a ${type}`
    return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`
  }

  // What napi-rs throws (a plain Error, code 'InvalidArg') when a method's
  // `this` is not an object of its class, or V8 when the receiver fails the
  // method's signature: turned into the TypeError Node throws for a wrong
  // `this`, naming the method. Only these exact errors: any other passes.
  function isWrongThis (error, className) {
    if (error instanceof TypeError) return error.message === 'Illegal invocation'
    return error instanceof Error && error.code === 'InvalidArg' &&
      (error.message === `Failed to unwrap exclusive reference of \`${className}\` type from napi value` ||
        error.message === `Value is not an instance of class \`${className}\``)
  }

  /** The error for `member` of `className` called on `self`, not a live one. */
  function thisError (className, member, self) {
    // Closed by `close()` below: a `className` object no longer wrapped.
    if (binding._isDetached(className, self)) return closedError(className)
    const error = new TypeError(`${className}.prototype.${member} must be called on a ${className}, not ${describe(self)}`)
    error.code = 'ERR_INVALID_THIS'
    return error
  }

  /** The closed error of a `className` object. */
  function closedError (className) {
    const error = new Error(`${className} used after close()`)
    error.code = 'ERR_ROBOTSTXT_CLOSED'
    return error
  }

  /**
   * `native` (a method or getter of `className`), with a wrong `this` a
   * TypeError. A Rules made here runs it on its native twin.
   */
  function guarded (className, member, native, label = member) {
    const receiver = className === 'Rules' ? (self) => RulesFields.nativeOf(self) : (self) => self
    return {
      [label] (...args) {
        const self = receiver(this) // a closed Rules made here throws the closed error
        try {
          return Reflect.apply(native, self, args)
        } catch (error) {
          throw isWrongThis(error, className) ? thisError(className, member, self) : error
        }
      }
    }[label]
  }

  /** What napi-rs throws for a `&mut self` call on an object a native call is using. */
  function isBusy (error) {
    return error instanceof Error && error.code === 'InvalidArg' &&
      error.message === 'The same native value cannot be borrowed mutably while another borrow is active'
  }

  /**
   * `close()`: the native `close` empties the object; then nothing uses it,
   * and it is unwrapped and freed at once, so that no finalizer waits for the
   * event loop to turn (Node runs them only then: a loop that never yields
   * would keep some 400 bytes per object until it does). Every later call
   * throws `ERR_ROBOTSTXT_CLOSED`.
   */
  function closer (className, empty) {
    return {
      close () {
        if (className === 'Rules' && RulesFields.closeMade(this)) return
        if (binding._isDetached(className, this)) return // closing twice does nothing
        if (className === 'Rules') RulesFields.forget(this) // before its slot goes back
        try {
          empty.call(this) // a wrong `this` throws here
        } catch (error) {
          if (!isBusy(error)) throw error
          // Closed by JavaScript that one of its own native calls runs (an
          // option getter): closed once that call has returned.
          queueMicrotask(() => this.close())
          return
        }
        binding._detach(className, this)
      }
    }.close
  }

  for (const className of CLASSES) {
    const proto = binding[className].prototype
    for (const member of Object.getOwnPropertyNames(proto)) {
      if (member === 'constructor') continue
      const d = Object.getOwnPropertyDescriptor(proto, member)
      if (typeof d.value === 'function') {
        Object.defineProperty(proto, member, { ...d, value: guarded(className, member, d.value) })
      } else if (typeof d.get === 'function') {
        Object.defineProperty(proto, member, { ...d, get: guarded(className, member, d.get, `get ${member}`) })
      }
    }
    const close = closer(className, proto.close)
    Object.defineProperty(proto, 'close', { value: close, writable: true, configurable: true })
    // `using x = ...` closes it at the end of the block.
    if (typeof Symbol.dispose === 'symbol') {
      Object.defineProperty(proto, Symbol.dispose, { value: close, writable: true, configurable: true })
    }
  }

  // Each Rules keeps its handle in a private field, put on the Rules itself
  // by a constructor that returns it (a base class constructor that returns
  // an object makes a subclass add its fields to that object). Reading it
  // is a field read, where a WeakMap lookup on rules not used lately cost a
  // cache miss or two per call; no reflection sees it, no other object
  // inherits or forges it, and a frozen Rules takes it too. A handle is
  // null when the thread's table is full, or once the rules are closed: the
  // methods then stay native (and throw the closed error).
  //
  // A Rules made here (`made`) is a JavaScript object on Rules.prototype
  // with a handle from the start; its `#native` is the native Rules that
  // its other methods run on, made on first need. A native Rules' own
  // `#native` is itself.
  class Itself {
    constructor (object) {
      return object
    }
  }

  // A collected Rules made here gives its slot back.
  const released = new FinalizationRegistry(binding._rulesGiveBack)

  class RulesFields extends Itself {
    #handle
    #native
    constructor (rules, handle, native) {
      super(rules)
      this.#handle = handle
      this.#native = native
    }

    /** A Rules around `handle`, fresh from a selection. */
    static made (handle) {
      const rules = Object.create(binding.Rules.prototype)
      new RulesFields(rules, handle, undefined) // eslint-disable-line no-new
      released.register(rules, handle, rules)
      return rules
    }

    /** The handle of `rules`, for its method `member`. */
    static of (rules, member) {
      if (typeof rules === 'object' && rules !== null && #handle in rules) return rules.#handle
      // Not a Rules: the getter throws, as a native method does. Closed
      // rules have a handle that names no rules (the module functions then
      // throw the closed error), or none (the methods do).
      let handle
      try {
        handle = handleGetter.call(rules)
      } catch (error) {
        throw isWrongThis(error, 'Rules') ? thisError('Rules', member, rules) : error
      }
      try {
        new RulesFields(rules, handle, rules) // eslint-disable-line no-new
      } catch {
        // An engine that refuses fields on a non-extensible object: this
        // Rules asks the getter each time.
      }
      return handle
    }

    /** What a native method of Rules runs on for `rules`. */
    static nativeOf (rules) {
      // A native Rules, or not a Rules at all: the native method decides.
      if (typeof rules !== 'object' || rules === null || !(#native in rules)) return rules
      if (rules.#native !== undefined) return rules.#native
      if (rules.#handle === null) throw closedError('Rules')
      rules.#native = binding._rulesFromHandle(rules.#handle)
      return rules.#native
    }

    /**
     * The handle of `rules` if it was made here (`null` once closed), else
     * undefined.
     */
    static madeHandle (rules) {
      if (typeof rules !== 'object' || rules === null || !(#native in rules) || rules.#native === rules) return undefined
      return rules.#handle
    }

    /** Closes `rules` if it was made here (and says so). */
    static closeMade (rules) {
      if (typeof rules !== 'object' || rules === null || !(#native in rules) || rules.#native === rules) return false
      if (rules.#handle !== null) {
        // No code outside this file holds the number: the slot goes back now.
        released.unregister(rules)
        binding._rulesGiveBack(rules.#handle)
        rules.#handle = null
        rules.#native?.close()
      }
      return true
    }

    /** Forgets the handle of `rules`: it is being closed. */
    static forget (rules) {
      if (typeof rules === 'object' && rules !== null && #handle in rules) rules.#handle = null
    }
  }
  const handleOf = RulesFields.of

  function define (name, value, className = 'Rules') {
    Object.defineProperty(binding[className].prototype, name, { value, writable: true, configurable: true })
  }

  for (const [className, member, toHandle] of SELECTIONS) {
    const native = binding[className].prototype[member]
    define(member, guarded(className, member, function (...args) {
      const handle = Reflect.apply(toHandle, this, args)
      // No slot left on this thread: a native Rules.
      return handle === null ? Reflect.apply(native, this, args) : RulesFields.made(handle)
    }), className)
  }

  // The handle, without making a native Rules to ask.
  Object.defineProperty(binding.Rules.prototype, '_handle', {
    get: function _handle () { return handleOf(this, '_handle') },
    configurable: true
  })

  // What a crawler reads of every new copy, read through the handle of a
  // Rules made here: no native twin to make.
  for (const [member, read] of [
    ['crawlDelay', binding._rulesCrawlDelay], ['requestRate', binding._rulesRequestRate],
    ['ruleCount', binding._rulesRuleCount]
  ]) {
    const native = Object.getOwnPropertyDescriptor(binding.Rules.prototype, member).get
    Object.defineProperty(binding.Rules.prototype, member, {
      get: {
        [`get ${member}`] () {
          const handle = RulesFields.madeHandle(this)
          if (handle === undefined) return native.call(this)
          if (handle === null) throw closedError('Rules')
          return read(handle)
        }
      }[`get ${member}`],
      configurable: true
    })
  }

  // Pacer.setRules takes a Rules made here by its handle.
  const setRulesNative = binding.Pacer.prototype.setRules
  define('setRules', guarded('Pacer', 'setRules', function setRules (host, rules) {
    const handle = RulesFields.madeHandle(rules)
    if (typeof handle === 'number') return setRulesHandle.call(this, host, handle)
    return setRulesNative.call(this, host, RulesFields.nativeOf(rules))
  }), 'Pacer')

  const isAllowedNative = binding.Rules.prototype.isAllowed
  const fast = binding._wasm === undefined ? null : direct(binding._wasm)
  define('isAllowed', fast === null
    ? function isAllowed (url) {
      const handle = handleOf(this, 'isAllowed')
      return handle === null ? isAllowedNative.call(this, url) : binding._rulesIsAllowed(handle, url)
    }
    : function isAllowed (url) {
      const handle = handleOf(this, 'isAllowed')
      if (handle === null) return isAllowedNative.call(this, url)
      const answer = fast.isAllowed(handle, url)
      // Not a string or bytes, or no live rules: the export throws.
      return answer < 0 ? binding._rulesIsAllowed(handle, url) : answer === 1
    })

  // filterAllowed, batched: an array of strings crosses into native code as
  // one joined string (one N-API string copy instead of one per URL, plus
  // one array read and write each), and the answers come back as one string
  // of "0"/"1" (on the WebAssembly build, as bytes in its memory). Anything
  // else — Buffers, wrong types, holes, a URL with a line break — takes the
  // native one-at-a-time path, with its errors.
  const filterOneByOne = binding.Rules.prototype.filterAllowed
  function allStrings (urls) {
    for (let i = 0; i < urls.length; i++) if (typeof urls[i] !== 'string') return false
    return true
  }
  define('filterAllowed', function filterAllowed (urls) {
    if (Array.isArray(urls) && urls.length > 1 && allStrings(urls)) {
      // Joined before the handle is read: a Proxy's traps may close rules.
      const joined = urls.join('\n')
      const handle = handleOf(this, 'filterAllowed')
      const allowed = handle === null || fast === null ? undefined : fast.filter(handle, joined, urls)
      if (Array.isArray(allowed)) return allowed
      // No live rules (the export throws), or the native build.
      if (handle !== null && allowed === undefined) {
        const flags = binding._rulesAllowedFlags(handle, joined, urls.length)
        if (flags !== null) return urls.filter((_, i) => flags.charCodeAt(i) === 49) // '1'
      }
    }
    return filterOneByOne.call(this, urls)
  })
}

/**
 * The WebAssembly build's direct path (src/wasm.rs): its raw exports,
 * called with the URL's UTF-8 written into one scratch buffer of its
 * memory, past emnapi, whose conversions cost most of a check.
 * `TextEncoder.encodeInto` writes what N-API writes natively (a lone
 * surrogate as U+FFFD).
 */
function direct ({ exports, memory }) {
  const encoder = new TextEncoder()
  const scratch = exports.robotstxt_node_scratch
  const check = exports.robotstxt_node_is_allowed
  const flags = exports.robotstxt_node_allowed_flags
  let size = 0
  let at = 0
  let view = new Uint8Array(0)

  /** The scratch buffer, at least `len` bytes. */
  function room (len) {
    if (len > size) {
      size = Math.max(len, 2 * size, 1024)
      at = scratch(size) // may grow the memory: the view comes after
      view = new Uint8Array(memory.buffer, at, size)
    } else if (view.byteLength !== size) {
      // The memory grew since: the old view is detached (and empty).
      view = new Uint8Array(memory.buffer, at, size)
    }
    return view
  }

  return {
    /** 1 allowed, 0 not, negative when the export must answer. */
    isAllowed (handle, url) {
      let len
      if (typeof url === 'string') {
        // A UTF-16 unit is at most 3 bytes of UTF-8.
        len = encoder.encodeInto(url, room(url.length * 3)).written
      } else if (url instanceof Uint8Array) {
        len = url.length
        room(len).set(url)
      } else {
        return -1
      }
      return check(handle, len)
    },

    /**
     * The URLs of `urls` allowed; null when one held a line break,
     * undefined when the export must answer.
     */
    filter (handle, joined, urls) {
      const count = urls.length
      const len = encoder.encodeInto(joined, room(joined.length * 3 + count)).written
      const done = flags(handle, len, count)
      if (done < 0) return undefined
      if (done === 0) return null
      const answers = room(len + count)
      const allowed = []
      for (let i = 0; i < count; i++) if (answers[len + i] === 1) allowed.push(urls[i])
      return allowed
    }
  }
}
