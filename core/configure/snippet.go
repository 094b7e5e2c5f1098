package configure

import (
	"strconv"
	"strings"
)

// The snippets are written with strings.Builder, not text/template or
// encoding/json: the package stays small in the browser's module. Each
// is checked by the system's own parser in the tests where a Go one
// exists (grpc-go's service config, go-control-plane's Envoy types,
// aws-sdk-go-v2's shared config and options).

// secs writes a duration in seconds as gRPC's and Envoy's JSON/YAML
// durations want it ("0.05s", "1s").
func secs(ms float64) string { return fmtF(ms/1000) + "s" }

func grpcSnippet(n int, maxTokens, ratio float64) string {
	var b strings.Builder
	b.WriteString("{\n  \"methodConfig\": [{\n    \"name\": [{}]")
	if n > 1 {
		b.WriteString(",\n    \"retryPolicy\": {\n")
		b.WriteString("      \"maxAttempts\": " + strconv.Itoa(n) + ",\n")
		b.WriteString("      \"initialBackoff\": \"0.1s\",\n      \"maxBackoff\": \"1s\",\n      \"backoffMultiplier\": 2,\n")
		b.WriteString("      \"retryableStatusCodes\": [\"UNAVAILABLE\"]\n    }")
	}
	b.WriteString("\n  }],\n  \"retryThrottling\": {\n")
	b.WriteString("    \"maxTokens\": " + fmtF(maxTokens) + ",\n")
	b.WriteString("    \"tokenRatio\": " + fmtF(ratio) + "\n  }\n}\n")
	return b.String()
}

func envoyRoute(n int, timeoutMS float64) string {
	var b strings.Builder
	b.WriteString("name: local_route\nvirtual_hosts:\n- name: backend\n  domains: [\"*\"]\n  routes:\n  - match: {prefix: \"/\"}\n    route:\n      cluster: backend\n")
	b.WriteString("      timeout: " + secs(timeoutMS*float64(n)) + "\n")
	if n > 1 {
		b.WriteString("      retry_policy:\n        retry_on: \"5xx,reset,connect-failure,refused-stream\"\n")
		b.WriteString("        num_retries: " + strconv.Itoa(n-1) + "\n")
		b.WriteString("        per_try_timeout: " + secs(timeoutMS) + "\n")
	}
	return b.String()
}

func envoyCluster(pct float64, m int) string {
	var b strings.Builder
	b.WriteString("name: backend\nconnect_timeout: 1s\ntype: STRICT_DNS\nlb_policy: ROUND_ROBIN\n")
	b.WriteString("load_assignment:\n  cluster_name: backend\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        address:\n          socket_address: {address: backend, port_value: 8080}\n")
	b.WriteString("circuit_breakers:\n  thresholds:\n  - priority: DEFAULT\n    retry_budget:\n")
	b.WriteString("      budget_percent: {value: " + fmtF(pct) + "}\n")
	b.WriteString("      min_retry_concurrency: " + strconv.Itoa(m) + "\n")
	return b.String()
}

func finagleSnippet(m int, pc float64, n int, timeoutMS float64) string {
	var b strings.Builder
	b.WriteString("import com.twitter.conversions.DurationOps._\nimport com.twitter.finagle.Http\nimport com.twitter.finagle.service.RetryBudget\n\n")
	b.WriteString("val budget = RetryBudget(\n  ttl = 10.seconds,\n  minRetriesPerSec = " + strconv.Itoa(m) + ",\n  percentCanRetry = " + fmtF(pc) + ")\n\n")
	b.WriteString("val client = Http.client\n  .withRetryBudget(budget)\n  .methodBuilder(\"inet!backend:8080\")\n")
	b.WriteString("  .withTimeoutPerRequest(" + strconv.Itoa(int(timeoutMS)) + ".milliseconds)\n")
	b.WriteString("  .withMaxRetries(" + strconv.Itoa(n-1) + ")\n  .newService(\"backend\")\n")
	return b.String()
}

func awsShared(s System, n int) string {
	return "[default]\nretry_mode = " + modeOf(s) + "\nmax_attempts = " + strconv.Itoa(n) + "\n"
}

func awsGo(s System, n int, cost, capacity float64) string {
	var b strings.Builder
	b.WriteString("cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {\n")
	std := "\t\to.MaxAttempts = " + strconv.Itoa(n) + "\n\t\to.RetryCost = " + fmtF(cost) +
		"\n\t\to.RateLimiter = ratelimit.NewTokenRateLimit(" + fmtF(capacity) + ")\n"
	if s == AWSAdaptive {
		b.WriteString("\treturn retry.NewAdaptiveMode(func(a *retry.AdaptiveModeOptions) {\n")
		b.WriteString("\t\ta.StandardOptions = append(a.StandardOptions, func(o *retry.StandardOptions) {\n")
		b.WriteString(strings.ReplaceAll(std, "\t\t", "\t\t\t"))
		b.WriteString("\t\t})\n\t})\n}))\n")
	} else {
		b.WriteString("\treturn retry.NewStandard(func(o *retry.StandardOptions) {\n")
		b.WriteString(std)
		b.WriteString("\t})\n}))\n")
	}
	return b.String()
}

func r4jSnippet(n int, thresholdPct, timeoutMS float64) string {
	var b strings.Builder
	b.WriteString("resilience4j:\n  retry:\n    instances:\n      backend:\n")
	b.WriteString("        maxAttempts: " + strconv.Itoa(n) + "\n        waitDuration: 500ms\n")
	b.WriteString("  circuitbreaker:\n    instances:\n      backend:\n        slidingWindowType: COUNT_BASED\n")
	b.WriteString("        slidingWindowSize: 100\n        minimumNumberOfCalls: 100\n")
	b.WriteString("        failureRateThreshold: " + fmtF(thresholdPct) + "\n")
	b.WriteString("        waitDurationInOpenState: 60s\n        permittedNumberOfCallsInHalfOpenState: 10\n")
	b.WriteString("  timelimiter:\n    instances:\n      backend:\n        timeoutDuration: " + strconv.Itoa(int(timeoutMS)) + "ms\n")
	return b.String()
}

func pollySnippet(n int, ratio float64) string {
	var b strings.Builder
	b.WriteString("var pipeline = new ResiliencePipelineBuilder()\n")
	if n > 1 {
		b.WriteString("    .AddRetry(new RetryStrategyOptions\n    {\n        MaxRetryAttempts = " + strconv.Itoa(n-1) + ",\n")
		b.WriteString("        BackoffType = DelayBackoffType.Exponential,\n        UseJitter = true,\n        Delay = TimeSpan.FromMilliseconds(100),\n    })\n")
	}
	b.WriteString("    .AddCircuitBreaker(new CircuitBreakerStrategyOptions\n    {\n        FailureRatio = " + fmtF(ratio) + ",\n")
	b.WriteString("        MinimumThroughput = 100,\n        SamplingDuration = TimeSpan.FromSeconds(30),\n        BreakDuration = TimeSpan.FromSeconds(5),\n    })\n    .Build();\n")
	return b.String()
}

func tenacitySnippet(n int) string {
	return "from tenacity import retry, stop_after_attempt, wait_random_exponential\n\n" +
		"@retry(stop=stop_after_attempt(" + strconv.Itoa(n) + "), wait=wait_random_exponential(multiplier=0.1, max=10), reraise=True)\n" +
		"def call_backend():\n    ...\n"
}
