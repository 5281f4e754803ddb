package wasmcore

// Func is one export of the module: a function of the C ABI
// (include/robotstxt.h), or one of the two that allocate scratch memory.
type Func int

// The exports package robotstxt calls, by their C names in Go case.
const (
	Version Func = iota
	StatusMessage
	LastError
	OptionsDefault
	RobotsParse
	RobotsParseWith
	RobotsFree
	RobotsProfile
	RobotsRulesFor
	RobotsRulesForAny
	RobotsRulesForStrictest
	RobotsSitemapCount
	RobotsSitemap
	RobotsHost
	ProductToken
	RulesFree
	RulesCanFetch
	RulesDecide
	RulesBlanket
	RulesRetryAt
	RulesWithRetryAt
	RulesCompile
	RulesCrawlDelay
	RulesRequestRate
	DecisionKindName
	RulesPreferences
	PreferencesWithHeader
	PreferencesFree
	PreferencesCrawlable
	PreferencesLabelCount
	PreferencesLabel
	PreferencesStatementCount
	PreferencesStatement
	PreferencesMember
	RulesContentSignal
	ContentSignalFree
	ContentSignalCount
	ContentSignalEntry
	ContentSignalLines
	RobotsOtherRecordCount
	RobotsOtherRecord
	RulesOtherRecordCount
	RulesOtherRecord
	RobotsDiagnosticCount
	RobotsDiagnostic
	LineKindName
	DiagnosticFlagName
	AccessClassify
	AccessFromOutcome
	DispositionRetryLater
	FreshnessPolicyDefault
	EntryNew
	EntryFree
	EntryRecord
	EntryIsDue
	EntryDueAt
	EntryFetchedAt
	EntryFailures
	EntryHasCopy
	EntryValidators
	EntryAnswer
	EntryEncode
	EntryDecode
	EntryStoredBody
	FleetScript
	EntryRulesFor
	RobotsOrigin
	PacerHost
	CacheOptionsDefault
	CacheNew
	CacheFree
	CacheLookup
	CacheStore
	CacheAbandon
	CacheRemove
	CacheStats
	CacheLen
	LeaseFree
	LeaseOrigin
	LeaseRobotsURL
	LeaseValidators
	PacerOptionsDefault
	PacerNew
	PacerFree
	PacerReserve
	TicketStart
	TicketFree
	PacerConfirm
	PacerCancel
	PacerInFlight
	PacerSetDelay
	PacerSetRules
	PacerRecord
	PacerSetEnabled
	PacerGapMS
	HTTPRead
	// A fleet's protocol, sans I/O (robotstxt_fleet_*).
	FleetStepFree
	FleetStepScript
	FleetStepCounts
	FleetStepKey
	FleetStepArg
	FleetCacheNew
	FleetCacheFree
	FleetCacheLookup
	FleetCacheLookupReply
	FleetLeaseRead
	FleetLeaseFree
	FleetCacheRenew
	FleetCacheRenewReply
	FleetCacheStore
	FleetCacheStoreReply
	FleetCacheStoreFailed
	FleetCacheAbandon
	FleetCacheRedisFailed
	FleetCacheFailSafe
	FleetCacheRemove
	FleetCacheStats
	FleetCacheLen
	FleetCacheMSUntil
	FleetCacheRenewEveryMS
	FleetPacerNew
	FleetPacerFree
	FleetPacerReserve
	FleetPacerReserveReply
	FleetTicketRead
	FleetTicketFree
	FleetPacerConfirm
	FleetPacerConfirmReply
	FleetPacerCancel
	FleetPacerRecord
	FleetPacerSetDelay
	FleetPacerSetEnabled
	FleetPacerStepReply
	FleetPacerPaceState
	FleetPacerPaceStateReply
	FleetPacerMSUntil
	PaceDelayMS
	WasmAlloc
	WasmFree
	numFuncs
)

// funcNames are the exports' names, checked when the module is
// instantiated.
var funcNames = [numFuncs]string{
	Version:                   "robotstxt_version",
	StatusMessage:             "robotstxt_status_message",
	LastError:                 "robotstxt_last_error",
	OptionsDefault:            "robotstxt_options_default",
	RobotsParse:               "robotstxt_robots_parse",
	RobotsParseWith:           "robotstxt_robots_parse_with",
	RobotsFree:                "robotstxt_robots_free",
	RobotsProfile:             "robotstxt_robots_profile",
	RobotsRulesFor:            "robotstxt_robots_rules_for",
	RobotsRulesForAny:         "robotstxt_robots_rules_for_any",
	RobotsRulesForStrictest:   "robotstxt_robots_rules_for_strictest",
	RobotsSitemapCount:        "robotstxt_robots_sitemap_count",
	RobotsSitemap:             "robotstxt_robots_sitemap",
	RobotsHost:                "robotstxt_robots_host",
	ProductToken:              "robotstxt_product_token",
	RulesFree:                 "robotstxt_rules_free",
	RulesCanFetch:             "robotstxt_rules_can_fetch",
	RulesDecide:               "robotstxt_rules_decide",
	RulesBlanket:              "robotstxt_rules_blanket",
	RulesRetryAt:              "robotstxt_rules_retry_at",
	RulesWithRetryAt:          "robotstxt_rules_with_retry_at",
	RulesCompile:              "robotstxt_rules_compile",
	RulesCrawlDelay:           "robotstxt_rules_crawl_delay",
	RulesRequestRate:          "robotstxt_rules_request_rate",
	DecisionKindName:          "robotstxt_decision_kind_name",
	RulesPreferences:          "robotstxt_rules_preferences",
	PreferencesWithHeader:     "robotstxt_preferences_with_header",
	PreferencesFree:           "robotstxt_preferences_free",
	PreferencesCrawlable:      "robotstxt_preferences_crawlable",
	PreferencesLabelCount:     "robotstxt_preferences_label_count",
	PreferencesLabel:          "robotstxt_preferences_label",
	PreferencesStatementCount: "robotstxt_preferences_statement_count",
	PreferencesStatement:      "robotstxt_preferences_statement",
	PreferencesMember:         "robotstxt_preferences_member",
	RulesContentSignal:        "robotstxt_rules_content_signal",
	ContentSignalFree:         "robotstxt_content_signal_free",
	ContentSignalCount:        "robotstxt_content_signal_count",
	ContentSignalEntry:        "robotstxt_content_signal_entry",
	ContentSignalLines:        "robotstxt_content_signal_lines",
	RobotsOtherRecordCount:    "robotstxt_robots_other_record_count",
	RobotsOtherRecord:         "robotstxt_robots_other_record",
	RulesOtherRecordCount:     "robotstxt_rules_other_record_count",
	RulesOtherRecord:          "robotstxt_rules_other_record",
	RobotsDiagnosticCount:     "robotstxt_robots_diagnostic_count",
	RobotsDiagnostic:          "robotstxt_robots_diagnostic",
	LineKindName:              "robotstxt_line_kind_name",
	DiagnosticFlagName:        "robotstxt_diagnostic_flag_name",
	AccessClassify:            "robotstxt_access_classify",
	AccessFromOutcome:         "robotstxt_access_from_outcome",
	DispositionRetryLater:     "robotstxt_disposition_retry_later",
	FreshnessPolicyDefault:    "robotstxt_freshness_policy_default",
	EntryNew:                  "robotstxt_entry_new",
	EntryFree:                 "robotstxt_entry_free",
	EntryRecord:               "robotstxt_entry_record",
	EntryIsDue:                "robotstxt_entry_is_due",
	EntryDueAt:                "robotstxt_entry_due_at",
	EntryFetchedAt:            "robotstxt_entry_fetched_at",
	EntryFailures:             "robotstxt_entry_failures",
	EntryHasCopy:              "robotstxt_entry_has_copy",
	EntryValidators:           "robotstxt_entry_validators",
	EntryAnswer:               "robotstxt_entry_answer",
	EntryEncode:               "robotstxt_entry_encode",
	EntryDecode:               "robotstxt_entry_decode",
	EntryStoredBody:           "robotstxt_entry_stored_body",
	FleetScript:               "robotstxt_fleet_script",
	EntryRulesFor:             "robotstxt_entry_rules_for",
	RobotsOrigin:              "robotstxt_robots_origin",
	PacerHost:                 "robotstxt_pacer_host",
	CacheOptionsDefault:       "robotstxt_cache_options_default",
	CacheNew:                  "robotstxt_cache_new",
	CacheFree:                 "robotstxt_cache_free",
	CacheLookup:               "robotstxt_cache_lookup",
	CacheStore:                "robotstxt_cache_store",
	CacheAbandon:              "robotstxt_cache_abandon",
	CacheRemove:               "robotstxt_cache_remove",
	CacheStats:                "robotstxt_cache_stats",
	CacheLen:                  "robotstxt_cache_len",
	LeaseFree:                 "robotstxt_lease_free",
	LeaseOrigin:               "robotstxt_lease_origin",
	LeaseRobotsURL:            "robotstxt_lease_robots_url",
	LeaseValidators:           "robotstxt_lease_validators",
	PacerOptionsDefault:       "robotstxt_pacer_options_default",
	PacerNew:                  "robotstxt_pacer_new",
	PacerFree:                 "robotstxt_pacer_free",
	PacerReserve:              "robotstxt_pacer_reserve",
	TicketStart:               "robotstxt_ticket_start",
	TicketFree:                "robotstxt_ticket_free",
	PacerConfirm:              "robotstxt_pacer_confirm",
	PacerCancel:               "robotstxt_pacer_cancel",
	PacerInFlight:             "robotstxt_pacer_in_flight",
	PacerSetDelay:             "robotstxt_pacer_set_delay",
	PacerSetRules:             "robotstxt_pacer_set_rules",
	PacerRecord:               "robotstxt_pacer_record",
	PacerSetEnabled:           "robotstxt_pacer_set_enabled",
	PacerGapMS:                "robotstxt_pacer_gap_ms",
	HTTPRead:                  "robotstxt_http_read",
	FleetStepFree:             "robotstxt_fleet_step_free",
	FleetStepScript:           "robotstxt_fleet_step_script",
	FleetStepCounts:           "robotstxt_fleet_step_counts",
	FleetStepKey:              "robotstxt_fleet_step_key",
	FleetStepArg:              "robotstxt_fleet_step_arg",
	FleetCacheNew:             "robotstxt_fleet_cache_new",
	FleetCacheFree:            "robotstxt_fleet_cache_free",
	FleetCacheLookup:          "robotstxt_fleet_cache_lookup",
	FleetCacheLookupReply:     "robotstxt_fleet_cache_lookup_reply",
	FleetLeaseRead:            "robotstxt_fleet_lease_read",
	FleetLeaseFree:            "robotstxt_fleet_lease_free",
	FleetCacheRenew:           "robotstxt_fleet_cache_renew",
	FleetCacheRenewReply:      "robotstxt_fleet_cache_renew_reply",
	FleetCacheStore:           "robotstxt_fleet_cache_store",
	FleetCacheStoreReply:      "robotstxt_fleet_cache_store_reply",
	FleetCacheStoreFailed:     "robotstxt_fleet_cache_store_failed",
	FleetCacheAbandon:         "robotstxt_fleet_cache_abandon",
	FleetCacheRedisFailed:     "robotstxt_fleet_cache_redis_failed",
	FleetCacheFailSafe:        "robotstxt_fleet_cache_fail_safe",
	FleetCacheRemove:          "robotstxt_fleet_cache_remove",
	FleetCacheStats:           "robotstxt_fleet_cache_stats",
	FleetCacheLen:             "robotstxt_fleet_cache_len",
	FleetCacheMSUntil:         "robotstxt_fleet_cache_ms_until",
	FleetCacheRenewEveryMS:    "robotstxt_fleet_cache_renew_every_ms",
	FleetPacerNew:             "robotstxt_fleet_pacer_new",
	FleetPacerFree:            "robotstxt_fleet_pacer_free",
	FleetPacerReserve:         "robotstxt_fleet_pacer_reserve",
	FleetPacerReserveReply:    "robotstxt_fleet_pacer_reserve_reply",
	FleetTicketRead:           "robotstxt_fleet_ticket_read",
	FleetTicketFree:           "robotstxt_fleet_ticket_free",
	FleetPacerConfirm:         "robotstxt_fleet_pacer_confirm",
	FleetPacerConfirmReply:    "robotstxt_fleet_pacer_confirm_reply",
	FleetPacerCancel:          "robotstxt_fleet_pacer_cancel",
	FleetPacerRecord:          "robotstxt_fleet_pacer_record",
	FleetPacerSetDelay:        "robotstxt_fleet_pacer_set_delay",
	FleetPacerSetEnabled:      "robotstxt_fleet_pacer_set_enabled",
	FleetPacerStepReply:       "robotstxt_fleet_pacer_step_reply",
	FleetPacerPaceState:       "robotstxt_fleet_pacer_pace_state",
	FleetPacerPaceStateReply:  "robotstxt_fleet_pacer_pace_state_reply",
	FleetPacerMSUntil:         "robotstxt_fleet_pacer_ms_until",
	PaceDelayMS:               "robotstxt_pace_delay_ms",
	WasmAlloc:                 "robotstxt_wasm_alloc",
	WasmFree:                  "robotstxt_wasm_free",
}
