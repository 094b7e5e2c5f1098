#!/usr/bin/env bash
# serverwork: the calibration of the shared server's work bounds
# (core/calc's Calculator.ServerWork). For each calculator, the CPU time
# of its worst accepted requests (core/calc's worstAccepted: a search by
# declared work, and the costliest shapes of serverProbes), computed and
# encoded as the API does, on one core:
#   - natively: the worst one's against the 50 ms goal (OK or OVER), the
#     CPU time per unit of declared work, and the ServerWork that puts the
#     worst accepted request at 35 ms (0.7 of the goal, room for a slower
#     core). The bounds in core/calc (work.go and each calculator's file)
#     are written from these lines; a calculator of microseconds
#     (microWork) is bounded by its parameters, not by the goal.
#   - the charts (/api/v1/NAME.svg) at the largest accepted values, natively,
#     against the same goal;
#   - as WebAssembly in V8 (Node's, the engine of workerd; CPU time from
#     process.cpuUsage), at the Worker's share of the bounds (workScale in
#     wasm/worker/main.go): the worst one's against the Worker's cpu_ms
#     (wasm/worker/wrangler.toml).
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
out=$(GOMAXPROCS=1 "$GO" test -run '^$' -bench '^BenchmarkServerWork$' -benchtime 1x ./core/calc)
echo "$out" | awk '
/^BenchmarkServerWork\// {
	name = $1; sub(/^BenchmarkServerWork\//, "", name); sub(/-[0-9]+$/, "", name)
	for (i = 2; i < NF; i++) { v[$(i+1)] = $i }
	worst = v["worst_ms"]; per = v["ns/work"]; work = v["work"]; bound = v["bound"]
	suggest = (per > 0) ? sprintf("%.0f", 0.7 * 50e6 / per) : "any"
	printf "serverwork: %-16s worst accepted %7.2f ms of CPU natively (work %.0f of bound %.0f): %s the 50 ms goal; %.3g ns per unit; 35 ms is ServerWork %s\n",
		name, worst, work, bound, (worst <= 50 ? "OK, under" : "OVER"), per, suggest
	if (worst > 50) over = 1
}
END { if (over) { print "serverwork: a calculator is OVER the 50 ms goal: lower its ServerWork to the figure above"; exit 1 } }'

# the charts: /api/v1/NAME.svg at the largest accepted values, computed
# and drawn (site/server's BenchmarkSVGWorst, svgBudgetTargets)
out=$(GOMAXPROCS=1 "$GO" test -run '^$' -bench '^BenchmarkSVGWorst$' -benchtime 5x ./site/server)
echo "$out" | awk '
/^BenchmarkSVGWorst\// {
	name = $1; sub(/^BenchmarkSVGWorst\//, "", name); sub(/-[0-9]+$/, "", name)
	for (i = 2; i < NF; i++) { if ($(i+1) == "cpu_ms") cpu = $i }
	printf "serverwork-svg: %7.2f ms of CPU natively: %s the 50 ms goal  /api/v1/%s\n", cpu, (cpu <= 50 ? "OK, under" : "OVER"), name
	if (cpu > 50) over = 1
}
END { if (over) { print "serverwork-svg: a chart is OVER the 50 ms goal"; exit 1 } }'

scale=$(sed -nE 's/^const workScale = ([0-9.]+).*/\1/p' wasm/worker/main.go)
cpums=$(sed -nE 's/^cpu_ms = ([0-9]+).*/\1/p' wasm/worker/wrangler.toml)
out=$(GOOS=js GOARCH=wasm "$GO" test -exec="$("$GO" env GOROOT)/lib/wasm/go_js_wasm_exec" -run '^$' -bench '^BenchmarkServerWork$' -benchtime 1x ./core/calc -args -serverwork.scale "$scale")
echo "$out" | awk -v scale="$scale" -v cpums="$cpums" '
/^BenchmarkServerWork\// {
	name = $1; sub(/^BenchmarkServerWork\//, "", name); sub(/-[0-9]+$/, "", name)
	for (i = 2; i < NF; i++) { v[$(i+1)] = $i }
	worst = v["worst_ms"]
	printf "serverwork-wasm: %-16s worst accepted %7.2f ms of CPU in V8 at %s of the bounds (work %.0f of %.0f): %s the Worker'"'"'s cpu_ms %s; %.3g ns per unit\n",
		name, worst, scale, v["work"], v["bound"], (worst <= cpums ? "OK, under" : "OVER"), cpums, v["ns/work"]
	if (worst > cpums) over = 1
}
END { if (over) { print "serverwork-wasm: a calculator is OVER the Worker'"'"'s cpu_ms: lower wasm/worker'"'"'s workScale"; exit 1 } }'
