// Compiled with `tsc --noEmit --strict` by `npm run typecheck`: the types of
// index.d.ts describe the API as the tests use it.

import {
  type Access, type Blanket, type Cause, type Confirmation, type Decision, type DecisionKind,
  type Diagnostic, type FetchOutcome, type Profile, type CacheLookup, type CacheStats,
  type ContentSignal, type OtherRecord, type Preferences, type UsageValue,
  Cache, CachedAnswer, Entry, Lease, Pacer, Robots, Rules, Ticket, accessFromOutcome, classifyFetch,
  productToken, version
} from '../index.js'

const profile: Profile = 'google'
const robots: Robots = Robots.parse(new Uint8Array([0x2f]), { profile, parseLimit: 600000, typos: false })
Robots.parse('User-agent: *\nDisallow: /x\n')
const rules: Rules = robots.rulesFor('ExampleBot')
robots.rulesForAny(['a', new Uint8Array([0x62])])
robots.rulesForStrictest(['GPTBot', 'CCBot'])

const allowed: boolean = rules.isAllowed('https://example.com/x')
const d: Decision = rules.decide(new Uint8Array([0x2f]))
const kind: 'allow' | 'disallow' | 'none' | 'allow-all' | 'disallow-all' = d.kind
const kinds: DecisionKind = kind
const blanket: Blanket | null = rules.blanket
const cause: Cause | undefined = blanket?.cause
const causeKind: 'status' | 'no-response' | 'not-fetched' | 'unreachable-limit' | 'caller' | undefined = cause?.kind
const causeStatus: number | undefined = cause?.status
const retryAt: number | null = rules.retryAt
const token: string = productToken('ExampleBot/1.0 (+https://example.com/bot)')
const line: number = d.line
const kept: string[] = rules.filterAllowed(['/a', '/b'])
const keptBytes: Uint8Array[] = rules.filterAllowed([new Uint8Array([0x2f])])
const many: Decision[] = rules.decideMany(['/a', new Uint8Array([0x2f])])
const delay: number | null = rules.crawlDelay
const interval: number | undefined = rules.requestRate?.interval
const sitemaps: string[] = robots.sitemaps
const host: string | null = robots.host
const diagnostics: Diagnostic[] = robots.diagnostics
const flags: Array<'typo' | 'missing-colon' | 'too-long' | 'outside-group' | 'invalid-value' | 'unknown-key' |
  'invalid-statement' | 'empty-statement' | 'unknown-preference'> = diagnostics.flatMap((x) => x.flags)
const lineKinds: Array<Diagnostic['kind']> = ['content-usage', 'content-signal']

const prefs: Preferences = rules.preferences('https://a.test/blog/', { header: null })
rules.preferences(new Uint8Array([0x2f]), { header: new Uint8Array() })
rules.preferences('/', { header: 'train-ai=n' })
const crawlable: boolean = prefs.crawlable
const prefDecision: Decision = prefs.decision
const trainAi: UsageValue | null | undefined = prefs.labels['train-ai']?.value
const trainLines: number[] | undefined = prefs.labels['train-ai']?.lines
const statementPath: string | undefined = prefs.statements[0]?.path
const memberValue: string | undefined = prefs.statements[0]?.members[0]?.value
const signal: ContentSignal | null = rules.contentSignal()
const aiTrain: 'yes' | 'no' | null | undefined = signal?.signals['ai-train']
const signalLines: number[] | undefined = signal?.lines
const others: OtherRecord[] = robots.otherRecords()
const otherGroup: number | null | undefined = rules.otherRecords()[0]?.group
const otherKey: string | undefined = others[0]?.keyLower

const access: Access = classifyFetch(503, 0, 'careful').access
const outcome: FetchOutcome = { status: null }
const got = accessFromOutcome({ status: 200, body: 'User-agent: *' }, { policy: 'strict', profile: 'rfc' })
const parsed: Robots | null = got.robots
const entry = new Entry({ freshForMs: 3600000, afterLimit: 'allow', policy: 'strict' })
const due: boolean = entry.isDue(Date.now())
const recorded: Access = entry.record({ status: 200, body: new Uint8Array(), etag: '"x"', maxAgeMs: 1000 }, 0)
const answer = entry.answer()
const answerKind: 'rules' | 'allow-all' | 'disallow-all' = answer.kind
const etag: string | null = entry.validators.etag
const v: string = version()

const cache = new Cache({ capacity: 100, leaseMs: 30000, freshForMs: 3600000, profile: 'google' })
const looked: CacheLookup = cache.lookup('https://a.test/x', Date.now(), 'disallow-all')
const lookupKind: 'ready' | 'fetch' | 'wait' = looked.kind
const lease: Lease | null = looked.lease
if (lease !== null) {
  const robotsUrl: string = lease.robotsUrl
  const stored: Access = cache.store(lease, { status: 200, body: robotsUrl }, 0)
  cache.abandon(lease)
  void stored
}
const cachedRules: Rules | undefined = looked.answer?.rulesFor('ExampleBot')
const lookupRetryAt: number | null = looked.retryAt
const answer2: CachedAnswer | null = looked.answer
const answerBlanket: Blanket | null | undefined = answer2?.blanket
const answerRetryAt: number | null | undefined = answer2?.retryAt
const stats: CacheStats = cache.stats
const pacer = new Pacer({ floorMs: 0, backoffCapMs: 60000, maxInFlight: 2, inFlightTimeoutMs: 30000 })
pacer.setRules('a.test', rules)
pacer.setDelay('a.test', { crawlDelay: 0.5, requestRate: rules.requestRate })
pacer.record('a.test', { status: 429, retryAfterMs: 1000 })
// A network error is reported as it is documented: status null.
pacer.record('a.test', { status: null })
pacer.setEnabled('a.test', false)
const ticket: Ticket | null = pacer.reserve('a.test')
const start: number | undefined = ticket?.start
if (ticket !== null) {
  const confirmed: Confirmation = pacer.confirm(ticket, Date.now())
  const confirmKind: 'go' | 'wait' | 'disabled' = confirmed.kind
  const until: number | null = confirmed.until
  const busy: boolean = confirmed.busy
  pacer.cancel(ticket)
  ticket.close()
  void [confirmKind, until, busy]
}
const inFlight: number = pacer.inFlight('a.test')
const gap: number = pacer.gapMs('a.test')
// Every class frees its native memory at once on close().
robots.close()
rules.close()
cache.close()
entry.close()
pacer.close()
lease?.close()
answer2?.close()

// @ts-expect-error a URL is a string or bytes
rules.isAllowed(42)
// @ts-expect-error the header is a string or bytes
rules.preferences('/', { header: 1 })
// @ts-expect-error profiles are 'rfc' or 'google'
Robots.parse('', { profile: 'bing' })
// @ts-expect-error status is required (null for a network error)
accessFromOutcome({ body: '' })

export const used = [allowed, kind, line, kept, keptBytes, many, delay, interval, sitemaps, host, flags,
  access, outcome, parsed, due, recorded, answerKind, etag, v, lookupKind, cachedRules, stats, start, gap,
  kinds, causeKind, causeStatus, retryAt, token, lookupRetryAt, answerBlanket, answerRetryAt, inFlight,
  lineKinds, crawlable, prefDecision, trainAi, trainLines, statementPath, memberValue, aiTrain, signalLines,
  otherGroup, otherKey]
