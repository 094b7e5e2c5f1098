package calc

import (
	"errors"
	"strconv"
	"strings"

	"retrylab/core/policies"
)

// PoliciesResult is the result of the policies calculator: every chosen
// retry policy run on the same seeded outage (core/policies). The lists
// policy … wasted_work hold one value per policy, in the order of the
// policies parameter, for the articles' citations ({=id.recovered[1]});
// results holds the same values and the time series, one object per
// policy.
type PoliciesResult struct {
	Loop string `json:"loop"`
	// Utilization is the nominal load before the trigger: open loop,
	// rate × service time / slots; closed loop, the same for the rate of
	// users who wait no more than the service time (an upper bound).
	Utilization   float64     `json:"utilization"`
	TriggerEndS   float64     `json:"trigger_end_s"`
	Policy        []string    `json:"policy"`
	Recovered     []bool      `json:"recovered"`
	RecoveryS     []*float64  `json:"recovery_s"`
	Amplification []float64   `json:"amplification"`
	Goodput       []float64   `json:"goodput"`
	WastedWork    []float64   `json:"wasted_work"`
	Throttled     []int       `json:"throttled"` // attempts each policy refused itself (a throttle, an open breaker)
	TS            []float64   `json:"t_s"`       // the start of each bin of the series, s
	Results       []PolicyRun `json:"results"`
	// Traces holds, under Args.WithTrace(n) only, the trace of each
	// policy's run, in the order of Results (policies.RunTraced: at most n
	// sampled requests each, and the exact counters): what the
	// request-flow view draws. Nil otherwise; never part of the JSON.
	Traces []policies.Trace `json:"-"`
}

// PolicyRun is one policy's outcome.
type PolicyRun struct {
	Policy string `json:"policy"`
	// Project, Version and Config say which system, which version of its
	// source and which configuration the preset is (core/policies
	// Presets).
	Project   string `json:"project"`
	Version   string `json:"version"`
	Config    string `json:"config"`
	Recovered bool   `json:"recovered"`
	// Status is "recovered", "draining" (not yet, but the queue is still
	// going down when the run stops: a longer horizon may see it
	// recover) or "not recovered".
	Status string `json:"status"`
	// RecoveryS is the time from the end of the trigger until the share of
	// requests that succeed is back, and stays, within 5% of its level
	// before the trigger; null when it never is within the horizon.
	RecoveryS     *float64 `json:"recovery_s"`
	Amplification float64  `json:"amplification"` // attempts sent per request
	Goodput       float64  `json:"goodput"`       // share of requests that succeeded
	WastedWork    float64  `json:"wasted_work"`   // server seconds on calls already given up
	WastedShare   float64  `json:"wasted_share"`  // wasted_work / all server seconds
	Before        float64  `json:"before"`        // share of requests that succeeded before the trigger
	Requests      int      `json:"requests"`
	Attempts      int      `json:"attempts"`
	Retries       int      `json:"retries"`
	Succeeded     int      `json:"succeeded"`
	TimedOut      int      `json:"timed_out"`
	Rejected      int      `json:"rejected"`
	Throttled     int      `json:"throttled"`
	RetriesDenied int      `json:"retries_denied"`
	// Per bin of bin_s: attempts and retries sent per second, answers in
	// time per second, calls waiting in the queue at the bin's end.
	OfferedPerS []float64 `json:"offered_per_s"`
	GoodputPerS []float64 `json:"goodput_per_s"`
	RetriesPerS []float64 `json:"retries_per_s"`
	Queue       []int     `json:"queue"`
}

// policiesMaxRequests bounds the expected new requests of one policy's run
// (600,000: a 10-minute outage at 1,000 requests per second), and
// policiesMaxWork the expected requests times the policies run (nine runs
// of that size run in about a second on one core, make bench).
const (
	policiesMaxRequests = 600000
	policiesMaxWork     = 9 * policiesMaxRequests
)

// policiesParam returns the parameter name of a core/policies Scenario
// field ("" for none).
func policiesParam(field string) string {
	switch field {
	case "Loop":
		return "loop"
	case "RatePerS":
		return "rate_per_s"
	case "Clients":
		return "clients"
	case "ThinkMS":
		return "think_ms"
	case "Slots":
		return "slots"
	case "ServiceMS":
		return "service_ms"
	case "QueueCap":
		return "queue_cap"
	case "TimeoutMS":
		return "timeout_ms"
	case "Trigger":
		return "trigger"
	case "TriggerStartS":
		return "trigger_start_s"
	case "TriggerS":
		return "trigger_s"
	case "TriggerFactor":
		return "trigger_factor"
	case "HorizonS":
		return "horizon_s"
	case "BinS":
		return "bin_s"
	case "Attempts":
		return "attempts"
	}
	return ""
}

// parsePolicies splits the policies parameter: known names, no repeats.
func parsePolicies(name, text string) ([]policies.Policy, error) {
	var out []policies.Policy
	for _, part := range strings.Split(text, ",") {
		p := policies.Policy(strings.TrimSpace(part))
		if !p.Valid() {
			var names []string
			for _, q := range policies.All() {
				names = append(names, string(q))
			}
			return nil, Refuse(name, "policies", CodeConstraint, "detail.policies.unknown",
				"{got} is no policy; the policies are {names}", "got", quote(string(p)), "names", strings.Join(names, ", "))
		}
		for _, q := range out {
			if q == p {
				return nil, Refuse(name, "policies", CodeConstraint, "detail.policies.repeated",
					"{got} is listed twice", "got", quote(string(p)))
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// policiesScenario is the outage the arguments describe.
func policiesScenario(a Args) policies.Scenario {
	return policies.Scenario{
		Loop: policies.Loop(a.String("loop")), RatePerS: a.Float("rate_per_s"), Clients: a.Int("clients"),
		ThinkMS: a.Float("think_ms"), Slots: a.Int("slots"), ServiceMS: a.Float("service_ms"),
		QueueCap: a.Int("queue_cap"), TimeoutMS: a.Float("timeout_ms"), Trigger: policies.Trigger(a.String("trigger")),
		TriggerStartS: a.Float("trigger_start_s"), TriggerS: a.Float("trigger_s"),
		TriggerFactor: a.Float("trigger_factor"), HorizonS: a.Float("horizon_s"), BinS: a.Float("bin_s"),
		Attempts: a.Int("attempts"),
	}
}

// policiesCalc declares the policies calculator.
//
//retrylab:calculator article=3 order=10
func policiesCalc() *Calculator {
	const name = "policies"
	d := policies.Default()
	f := FormatFloat
	i := strconv.Itoa
	var all, shown, notes []string
	for _, p := range policies.All() {
		all = append(all, string(p))
	}
	for _, p := range policies.Shown() {
		shown = append(shown, string(p))
	}
	notes = append(notes, "presets (policies=NAME,...; * = shown by default):")
	for _, p := range policies.Presets() {
		mark := " "
		if p.Shown {
			mark = "*"
		}
		notes = append(notes, "  "+mark+" "+string(p.Name)+": "+p.Project+", "+p.Version+"; "+p.Config)
	}
	return &Calculator{
		Name:      name,
		Examples:  []string{"policies=naive&horizon_s=10&trigger_start_s=2&trigger_s=1&bin_s=1", "policies=r4j,polly,grpc-deadline,finagle-default&trigger_s=15", "loop=closed&policies=aws,sre-throttle", "trigger_factor=1&policies=none"},
		Help:      "run retry policies as real systems ship them (gRPC, Envoy, Finagle, AWS SDKs, the SRE book, resilience4j, Polly, tower), by version and configuration, on the same outage: who recovers after the trigger",
		Notes:     notes,
		Essential: []string{"loop", "trigger", "policies", "attempts"},
		Work:      policiesWork, ServerWork: policiesServerWork, WorkParam: "horizon_s",
		Params: []Param{
			{Name: "loop", Kind: Choice, Default: string(d.Loop), Choices: []string{"open", "closed"},
				Help: "open: requests arrive at a rate whatever the answers; closed: a fixed population waits for each answer, then thinks"},
			{Name: "rate_per_s", Kind: Float, Default: f(d.RatePerS), Min: Excl(0), Max: Incl(100000), Unit: "1/s",
				SliderMin: 10, SliderMax: 200, Step: 1, Help: "open loop: new requests per second (Poisson)"},
			{Name: "clients", Kind: Int, Default: i(d.Clients), Min: Incl(1), Max: Incl(100000), SliderMax: 400,
				Help: "closed loop: users, each with one request at a time"},
			{Name: "think_ms", Kind: Float, Default: f(d.ThinkMS), Min: Incl(1), Max: Incl(3600000), Unit: "ms",
				SliderMin: 10, SliderMax: 5000, Step: 10, Help: "closed loop: mean (exponential) pause after an answer before the next request"},
			{Name: "slots", Kind: Int, Default: i(d.Slots), Min: Incl(1), Max: Incl(10000), SliderMax: 100,
				Help: "calls the server works on at once"},
			{Name: "service_ms", Kind: Float, Default: f(d.ServiceMS), Min: Incl(0.001), Max: Incl(3600000), Unit: "ms",
				SliderMin: 10, SliderMax: 500, Step: 5, Help: "mean (exponential) service time of one call"},
			{Name: "queue_cap", Kind: Int, Default: i(d.QueueCap), Min: Incl(0), Max: Incl(1000000), SliderMax: 5000, Step: 10,
				Help: "calls that may wait for a worker; beyond, a call fails fast"},
			{Name: "timeout_ms", Kind: Float, Default: f(d.TimeoutMS), Min: Incl(0.001), Max: Incl(3600000), Unit: "ms",
				SliderMin: 100, SliderMax: 5000, Step: 50, Help: "the client gives up on an attempt after this; the server does not know"},
			{Name: "trigger", Kind: Choice, Default: string(d.Trigger), Choices: []string{"latency", "capacity"},
				Help: "latency: service times × trigger_factor; capacity: slots / trigger_factor take new calls"},
			{Name: "trigger_start_s", Kind: Float, Default: f(d.TriggerStartS), Min: Incl(0), Max: Incl(86400), Unit: "s",
				SliderMin: 2, SliderMax: 300, Step: 1, Help: "when the trigger starts, after a warm-up of healthy traffic (at least two bins after 0)"},
			{Name: "trigger_s", Kind: Float, Default: f(d.TriggerS), Min: Excl(0), Max: Incl(86400), Unit: "s",
				SliderMin: 0.5, SliderMax: 30, Step: 0.5, Help: "how long the trigger lasts (it ends at least two bins before the horizon)"},
			{Name: "trigger_factor", Kind: Float, Default: f(d.TriggerFactor), Min: Incl(1), Max: Incl(1000), Step: 0.1,
				SliderMax: 10, Help: "how much worse the service is during the trigger (1: no trigger)"},
			{Name: "horizon_s", Kind: Float, Default: f(d.HorizonS), Min: Excl(0), Max: Incl(86400), Unit: "s",
				SliderMin: 10, SliderMax: 900, Step: 10, Help: "new requests start until this time"},
			{Name: "bin_s", Kind: Float, Default: f(d.BinS), Min: Incl(0.001), Max: Incl(86400), Unit: "s",
				SliderMin: 0.1, SliderMax: 10, Step: 0.1, Help: "width of one point of the series (at most 2,000 points)"},
			{Name: "attempts", Kind: Int, Default: i(d.Attempts), Min: Incl(1), Max: Incl(10),
				Help: "naive and backoff: attempts per request, the first included (the others keep their systems' own)"},
			{Name: "policies", Kind: Text, Default: strings.Join(shown, ","), MaxLen: 300, Members: all,
				Help: "the presets to run, comma-separated (retrylab calc policies -h lists each with its project, version and configuration): " + strings.Join(all, ", ")},
			{Name: "seed", Kind: Int, Default: "20261017", Min: Incl(0), Max: Incl(1 << 53),
				Help: "seed of the simulation (math/rand/v2 PCG); every policy sees the same arrivals"},
		},
		Run: func(a Args) (any, error) {
			s := policiesScenario(a)
			pols, err := parsePolicies(name, a.String("policies"))
			if err != nil {
				return nil, err
			}
			// The work bound: the expected new requests of one run.
			expected := float64(s.RatePerS * s.HorizonS)
			param := "rate_per_s"
			if s.Loop == policies.Closed {
				expected = float64(s.Clients) * float64(s.HorizonS*1000/s.ThinkMS)
				param = "clients"
			}
			if expected > policiesMaxRequests {
				return nil, Refuse(name, param, CodeWork, "detail.policies.requests",
					"the run would start about {got} requests; at most {max}", "got", i(int(expected)), "max", i(policiesMaxRequests))
			}
			if work := expected * float64(len(pols)); work > policiesMaxWork {
				return nil, Refuse(name, param, CodeWork, "detail.policies.requests",
					"the run would start about {got} requests; at most {max}", "got", i(int(work)), "max", i(policiesMaxWork))
			}
			out := PoliciesResult{Loop: string(s.Loop), TriggerEndS: s.TriggerStartS + s.TriggerS}
			if s.Loop == policies.Open {
				out.Utilization = float64(s.RatePerS*s.ServiceMS/1000) / float64(s.Slots)
			} else {
				out.Utilization = float64(s.Clients) / float64((s.ThinkMS+s.ServiceMS)/1000) * float64(s.ServiceMS/1000) / float64(s.Slots)
			}
			runs, traces, err := policiesRuns(s, pols, uint64(a.Int("seed")), a)
			if a.trace > 0 {
				out.Traces = traces
			}
			if err != nil {
				if stopped(err) {
					return nil, err
				}
				if fe, ok := errors.AsType[*policies.FieldError](err); ok {
					pn := policiesParam(fe.Field)
					return nil, Refuse(name, pn, CodeConstraint, "detail.policies."+pn, "{reason}", "reason", fe.Msg)
				}
				return nil, err
			}
			for i, p := range pols {
				r := runs[i]
				pre, _ := policies.Find(p)
				status := "not recovered"
				switch {
				case r.Recovered:
					status = "recovered"
				case r.Draining:
					status = "draining"
				}
				run := PolicyRun{
					Policy: string(p), Project: pre.Project, Version: pre.Version, Config: pre.Config,
					Recovered: r.Recovered, Status: status, Before: r.Before,
					Requests: r.Requests, Attempts: r.Attempts, Retries: r.Retries, Succeeded: r.Succeeded,
					TimedOut: r.TimedOut, Rejected: r.Rejected, Throttled: r.Throttled, RetriesDenied: r.RetriesDenied,
					WastedWork: r.WastedS, OfferedPerS: r.Offered, GoodputPerS: r.Goodput, RetriesPerS: r.RetryRate,
					Queue: r.Queue,
				}
				if r.Recovered {
					v := r.RecoveryS
					run.RecoveryS = &v
				}
				if r.Requests > 0 {
					run.Amplification = float64(r.Attempts) / float64(r.Requests)
					run.Goodput = float64(r.Succeeded) / float64(r.Requests)
				}
				if r.BusyS > 0 {
					run.WastedShare = r.WastedS / r.BusyS
				}
				out.Policy = append(out.Policy, run.Policy)
				out.Recovered = append(out.Recovered, run.Recovered)
				out.RecoveryS = append(out.RecoveryS, run.RecoveryS)
				out.Amplification = append(out.Amplification, run.Amplification)
				out.Goodput = append(out.Goodput, run.Goodput)
				out.WastedWork = append(out.WastedWork, run.WastedWork)
				out.Throttled = append(out.Throttled, run.Throttled)
				out.Results = append(out.Results, run)
			}
			if len(out.Results) > 0 {
				out.TS = make([]float64, len(out.Results[0].Queue))
				for b := range out.TS {
					out.TS[b] = float64(b) * s.BinS
				}
			}
			return out, nil
		},
	}
}

// policiesRuns runs pols on s with seed, the trace a asks for (WithTrace)
// and its meter, and returns each policy's result and trace (nil
// without a trace): those a's memo (WithMemo) holds are taken from it,
// the others run together (sharing their prefix, policies.RunAll) and
// kept.
func policiesRuns(s policies.Scenario, pols []policies.Policy, seed uint64, a Args) ([]policies.Result, []policies.Trace, error) {
	runs := make([]policies.Result, len(pols))
	var traces []policies.Trace
	if a.trace > 0 {
		traces = make([]policies.Trace, len(pols))
	}
	var missing []policies.Policy
	var at []int // missing[j] is pols[at[j]]
	keys := make([]string, len(pols))
	for i, p := range pols {
		if a.memo != nil {
			keys[i] = policyKey(s, p, seed, a.trace)
			if v, ok := a.memo.get(keys[i]); ok {
				part := v.(memoPart)
				runs[i] = part.res
				if traces != nil {
					traces[i] = part.trace
				}
				continue
			}
		}
		missing = append(missing, p)
		at = append(at, i)
	}
	if len(missing) == 0 {
		return runs, traces, nil
	}
	var got []policies.Result
	var gotTraces []policies.Trace
	var err error
	if a.trace > 0 {
		got, gotTraces, err = policies.RunTracedMeter(s, missing, seed, a.trace, a.meter())
	} else {
		got, err = policies.RunAllMeter(s, missing, seed, a.meter())
	}
	if err != nil {
		return nil, nil, err
	}
	for j, i := range at {
		part := memoPart{res: got[j]}
		runs[i] = got[j]
		if traces != nil {
			part.trace = gotTraces[j]
			traces[i] = gotTraces[j]
		}
		if a.memo != nil {
			a.memo.put(keys[i], part)
		}
	}
	return runs, traces, nil
}
