# shellcheck shell=bash
# Sourced by test-python*.sh: check_shop FILE fails (through the caller's
# fail) unless FILE, the output of examples/python/shop.py over
# examples/shop/robots.txt, answers behaviour §9's questions and crawl
# delays.
check_shop() {
	local line found token path want prefix
	local -a printed
	mapfile -t printed < "$1"
	# token<TAB>path<TAB>answer, the table of behaviour §9; shop.py prints
	# each as TOKEN PATH ANSWER (WHY) in columns, or TOKEN PATH error: MESSAGE.
	while IFS=$'\t' read -r token path want; do
		if [ "$want" = error ]; then
			prefix=$(printf '%-40s %-32s error: ' "$token" "$path")
		else
			prefix=$(printf '%-40s %-32s %-10s (' "$token" "$path" "$want")
		fi
		found=
		for line in "${printed[@]}"; do
			if [[ $line == "$prefix"* ]]; then found=yes; fi
		done
		[ -n "$found" ] || fail "shop.py: $token $path is not $want"
	done <<'TABLE'
NimbuBot	/prices/today	allowed
NimbuBot	/prices/history	disallowed
NimbuBot	/guides/size-chart.pdf	disallowed
NimbuBot	/guides/size-chart.pdf?print=1	allowed
NimbuBot	/offers/weekend	allowed
NimbuBot	/drafts/new-range	disallowed
NimbuBot	/account/orders	allowed
OtherBot	/account/orders	disallowed
OtherBot	/products/?sort=price	disallowed
ArchiveBot	/robots.txt	allowed
nimbubot	/%70rices/history	disallowed
Mozilla/5.0 (compatible; NimbuBot/1.0)	/prices/history	error
TABLE
	grep -x -e 'crawl-delay NimbuBot: 2.5 s' "$1" >/dev/null && grep -x 'crawl-delay OtherBot: 2.0 s' "$1" >/dev/null \
		|| fail "shop.py: crawl delays"
}
