// Package jitter spreads waves of retries in time with the strategies
// fixed, full, equal and decorrelated, drawing from a CPython-compatible
// random.Random (package pyrand) so that a seed gives, arrival for arrival,
// what the same Python program gives, and counts the arrivals in bins of a
// chosen width.
//
// The model: clients all fail at time 0 and every call fails at once (no
// service time), so client i's retry k (k from 0) arrives at the sum of its
// waits 0..k. Wave k has the ceiling c_k = min(Cap, Base·2^k) and the wait
// before retry k is
//
//	fixed         c_k                                   (no draw)
//	full          uniform(0, c_k)
//	equal         c_k/2 + uniform(0, c_k/2)
//	decorrelated  min(Cap, uniform(Base, 3·prev))       prev starts at Base, per client
//
// Draws are taken wave by wave and, within a wave, client by client. Times
// are in milliseconds.
package jitter

import (
	"errors"
	"math"
	"math/bits"
	"strconv"

	"retrylab/core/meter"
	"retrylab/core/pyrand"
)

// Strategy is a way of choosing the wait before a retry.
type Strategy uint8

const (
	Fixed        Strategy = iota // the ceiling itself, no randomness
	Full                         // uniform in [0, ceiling)
	Equal                        // half the ceiling plus uniform in [0, half)
	Decorrelated                 // min(cap, uniform(base, 3·previous wait))
)

var strategyNames = [...]string{"fixed", "full", "equal", "decorrelated"}

// String returns the strategy's name as the calculators spell it.
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "Strategy(" + strconv.Itoa(int(uint8(s))) + ")"
}

// ParseStrategy returns the strategy called name ("fixed", "full",
// "equal", "decorrelated").
func ParseStrategy(name string) (Strategy, bool) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), true
		}
	}
	return 0, false
}

// Config is one experiment. All durations are in milliseconds.
type Config struct {
	Clients  int      // clients retrying, >= 1
	Waves    int      // retries per client, >= 1
	BaseMS   float64  // first ceiling, finite and > 0
	CapMS    float64  // largest ceiling, finite and >= BaseMS; 0 means BaseMS·2^(Waves-1)
	WidthMS  float64  // bin width, finite and > 0
	Strategy Strategy // how each wait is chosen (the zero value is Fixed)
	// KeepArrivals asks for every arrival time in draw order (Result.Arrivals).
	KeepArrivals bool
}

// Result is the histogram of the arrivals of every retry of every client.
type Result struct {
	Total int // Clients × Waves
	// Counts[j] is the number of arrivals t with j·Width <= t < (j+1)·Width
	// (exactly, in real arithmetic on the float values), from bin 0 to the
	// last bin the strategy can reach.
	Counts        []int
	Peak          int     // the largest count
	PeakBin       int     // the first bin holding Peak
	MeanArrivalMS float64 // the mean arrival time
	MaxArrivalMS  float64 // the latest arrival
	Arrivals      []float64
}

// cap returns the effective cap.
func (c Config) cap() float64 {
	if c.CapMS == 0 {
		return math.Ldexp(c.BaseMS, c.Waves-1)
	}
	return c.CapMS
}

// ceiling returns c_k = min(cap, base·2^k).
func (c Config) ceiling(k int) float64 {
	return math.Min(c.cap(), math.Ldexp(c.BaseMS, k))
}

// Validate checks the domain of c.
func (c Config) Validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case c.Clients < 1:
		return errors.New("jitter: clients must be >= 1")
	case c.Waves < 1 || c.Waves > 1000:
		return errors.New("jitter: waves must be in [1, 1000]")
	case !finite(c.BaseMS) || c.BaseMS <= 0:
		return errors.New("jitter: base must be finite and > 0")
	case !finite(c.WidthMS) || c.WidthMS <= 0:
		return errors.New("jitter: width must be finite and > 0")
	case !finite(c.cap()) || c.cap() < c.BaseMS:
		return errors.New("jitter: cap must be finite and >= base")
	case int(c.Strategy) >= len(strategyNames):
		return errors.New("jitter: unknown strategy " + c.Strategy.String())
	}
	return nil
}

// Horizon returns the supremum of the arrival times of the strategy (the
// sum over the waves of the largest possible wait) and whether it is
// attained (fixed always; decorrelated when the cap is below 3·base).
func (c Config) Horizon() (sup float64, attained bool) {
	capMS := c.cap()
	prevSup := c.BaseMS
	for k := 0; k < c.Waves; k++ {
		switch c.Strategy {
		case Decorrelated:
			prevSup = math.Min(capMS, 3*prevSup)
			sup += prevSup
		default:
			sup += c.ceiling(k)
		}
	}
	switch c.Strategy {
	case Fixed:
		return sup, true
	case Decorrelated:
		return sup, capMS < 3*c.BaseMS
	}
	return sup, false
}

// Bins returns the number of bins from bin 0 to the last one the strategy
// can reach: what Result.Counts holds (it may hold one more when float
// rounding makes an arrival equal the unattained horizon). The error is
// for an invalid Config.
func (c Config) Bins() (int, error) {
	if err := c.Validate(); err != nil {
		return 0, err
	}
	sup, attained := c.Horizon()
	q := sup / c.WidthMS
	if q > 1<<40 {
		return math.MaxInt, nil
	}
	last := Bin(sup, c.WidthMS)
	if !attained && last > 0 && math.FMA(float64(last), c.WidthMS, -sup) == 0 {
		last-- // sup is on a bin edge and never reached: its bin is empty
	}
	return last + 1, nil
}

// Bin returns the bin j of t for width w: the integer with
// j·w <= t < (j+1)·w in exact arithmetic on the float values t >= 0 and
// w > 0 (so 100 with width 0.1, whose float is slightly above 1/10, is in
// bin 999). t/w must be below 2^52.
func Bin(t, w float64) int {
	q := t / w
	j := math.Floor(q)
	// q is within a few ulps of the exact ratio; only near an integer can
	// the floor be wrong, and there the sign of j·w - t decides.
	if f := q - j; f < 1e-6 || f > 1-1e-6 {
		return exactBin(t, w, j)
	}
	return int(j)
}

// exactBin corrects the candidate bin j of t (off by at most one) with the
// exact sign of j·w - t and (j+1)·w - t, which a fused multiply-add gives
// (one rounding of the exact value keeps its sign).
func exactBin(t, w, j float64) int {
	if math.FMA(j, w, -t) > 0 {
		j--
	} else if math.FMA(j+1, w, -t) <= 0 {
		j++
	}
	return int(j)
}

// BinStart returns the start of bin j, j·w, as the calculators print it.
func BinStart(j int, w float64) float64 { return float64(j) * w }

// Run draws every wait from r (which it advances) and returns the
// histogram. It allocates the counts, the arrivals when asked, and, for
// more than one wave, two float64 per client; nothing per arrival. The
// caller bounds Clients × Waves and Bins(); a horizon of 2^1000 ms or
// more (the fixed-point sum's limit) is an error.
func Run(c Config, r *pyrand.Random) (Result, error) { return RunMeter(c, r, nil) }

// RunMeter is Run with a meter, told of every wait drawn (one per client
// and wave): when it says stop, the run ends with meter.ErrStopped.
func RunMeter(c Config, r *pyrand.Random, m *meter.Meter) (Result, error) {
	bins, err := c.Bins()
	if err != nil {
		return Result{}, err
	}
	if bins > 1<<27 {
		return Result{}, errors.New("jitter: " + strconv.Itoa(bins) + " bins is too many")
	}
	sup, _ := c.Horizon()
	if sup >= 0x1p1000 { // newAccumulator's bound
		return Result{}, errors.New("jitter: arrivals reach 2^1000 ms or beyond")
	}
	total := c.Clients * c.Waves
	res := Result{Total: total, Counts: make([]int, bins, bins+1)}
	if c.KeepArrivals {
		res.Arrivals = make([]float64, 0, total)
	}
	var at, prev []float64 // per client: arrival time so far, previous wait
	if c.Waves > 1 {
		at = make([]float64, c.Clients)
		if c.Strategy == Decorrelated {
			prev = make([]float64, c.Clients)
			for i := range prev {
				prev[i] = c.BaseMS
			}
		}
	}
	acc := newAccumulator(c.WidthMS, sup, res.Counts, res.Arrivals)
	capMS, base := c.cap(), c.BaseMS
	buf := make([]float64, min(chunk, c.Clients))
	for k := 0; k < c.Waves; k++ {
		ck := c.ceiling(k)
		half := ck / 2
		for i0 := 0; i0 < c.Clients; i0 += len(buf) {
			b := buf[:min(len(buf), c.Clients-i0)]
			if m.Add(len(b)) {
				return Result{}, meter.ErrStopped
			}
			// the waits of clients i0 … i0+len(b)-1, in draw order
			off, mul := 0.0, 1.0 // what addAll makes of b: off + mul·b[i]
			switch c.Strategy {
			case Fixed:
				for i := range b {
					b[i] = ck
				}
			case Full:
				r.Fill(b)
				mul = ck // uniform(0, c) = 0 + (c-0)·random()
			case Equal:
				r.Fill(b)
				off, mul = half, half // c/2 + uniform(0, c/2)
			case Decorrelated:
				r.Fill(b)
				for i, x := range b {
					p := base
					if prev != nil {
						p = prev[i0+i]
					}
					// min(cap, uniform(base, 3·prev)), uniform as pyrand.Uniform
					w := math.Min(capMS, base+float64((3*p-base)*x))
					if prev != nil {
						prev[i0+i] = w
					}
					b[i] = w
				}
			}
			if at != nil {
				a := at[i0 : i0+len(b)]
				for i, x := range b {
					a[i] += off + float64(mul*x)
					b[i] = a[i]
				}
				off, mul = 0, 1
			}
			acc.addAll(b, off, mul)
		}
	}
	if m.Done() {
		return Result{}, meter.ErrStopped
	}
	res.Counts, res.Arrivals, res.MaxArrivalMS = acc.counts, acc.arrivals, acc.max
	res.MeanArrivalMS = acc.sum() / float64(total)
	for j, n := range res.Counts {
		if n > res.Peak {
			res.Peak, res.PeakBin = n, j
		}
	}
	return res, nil
}

// chunk is the number of waits drawn and counted at a time (at most
// 1024: accumulator.addAll's exact sum within a chunk needs it).
const chunk = 1024

// binner is Bin for one width, with the reciprocal computed once: t·(1/w)
// is within 2 ulps of t/w.
type binner struct{ w, inv float64 }

func newBinner(w float64) binner { return binner{w: w, inv: 1 / w} }

// bin is Bin(t, b.w), with the reciprocal: the candidate floor(t·(1/w))
// is off by at most one, which exactBin corrects.
func (b binner) bin(t float64) int { return exactBin(t, b.w, math.Floor(t*b.inv)) }

// binFrac is the number of fraction bits of the fixed-point bin position
// accumulator.addAll works with.
const binFrac = 20

// accumulator counts arrivals in bins, keeps the latest, and sums them.
//
// The bin of t: v = floor(t·(2^binFrac/w)), an integer below 2^48 (Run
// allows at most 2^27 bins), is floor(q·2^binFrac) for q = t·(1/w)
// (scaling by 2^binFrac is exact): its top bits are floor(q), its low
// binFrac bits the start of q's fraction. q is within 2 ulps of t/w, at
// most 2^-24 (t/w < 2^28). When the low bits are neither 0, 1 nor all
// ones, q is at least 2^-20 from an integer and floor(q) is Bin's bin;
// otherwise (or beyond the last bin) binner.bin bins the arrival, exactly.
//
// The sum is a fixed-point one: each arrival is round(t/unit)·unit plus
// a remainder r (|r| <= unit/2, exact), the first added exactly (in a
// float64 within a chunk, then in a 128-bit integer) and the remainders
// in a float64. unit is a power of two with horizon < 2^41·unit <=
// 2·horizon, so round(t/unit) <= 2^41 and a chunk's sum < 2^52, exact.
// The remainders hold what is below unit (the last 12 bits of the
// largest arrivals) and their rounding errors are far below the last bit
// of the total: the mean is the correctly rounded one in practice, as
// CPython's math.fsum gives (TestMeanExact checks it against an exact
// sum), and sum adds the parts with one rounding.
type accumulator struct {
	b        binner
	pos      float64 // 2^binFrac/w, exactly (1/w)·2^binFrac
	counts   []int
	arrivals []float64
	keep     bool
	max      float64 // the latest arrival
	maxPos   uint64  // its v
	// round(t/unit)·unit is (t + magic) - magic, magic = 1.5·2^52·unit
	// (the spacing of the floats near magic is unit).
	unit, magic float64
	fixed       [2]uint64 // the sum of round(t/unit): high, low
	rest        float64   // the sum of the remainders
	edges       [chunk]uint16
}

// newAccumulator returns an accumulator for width w and arrivals up to
// sup (below 2^1000, so that magic is finite), counting into counts and
// appending to arrivals when it is not nil.
func newAccumulator(w, sup float64, counts []int, arrivals []float64) accumulator {
	_, e := math.Frexp(sup) // 2^(e-1) <= sup < 2^e
	unit := math.Ldexp(1, max(e-41, -1074))
	b := newBinner(w)
	return accumulator{b: b, pos: math.Ldexp(b.inv, binFrac), counts: counts, arrivals: arrivals,
		keep: arrivals != nil, unit: unit, magic: 1.5 * 0x1p52 * unit}
}

// addAll counts the arrivals off + mul·xs[i] (the float expression, so
// off 0 and mul 1 give xs[i] itself); xs has at most chunk elements.
//
// Its loop makes the arrival, its bin and its share of the sum with no
// call (a call in the loop made Go keep its sums in memory), no store
// and no reading of a float's bits (a trip through memory in
// WebAssembly). An arrival near a bin edge counts for nothing in the
// loop; its index goes to a.edges, binned after the loop. The latest
// arrival is looked for after the loop, only when the largest v (which
// grows with t) reaches the latest arrival's: rarely, for random waits.
// Arrivals are made again there from the same expression, and so are
// the same floats.
func (a *accumulator) addAll(xs []float64, off, mul float64) {
	pos, magic := a.pos, a.magic
	counts := a.counts
	n := uint64(len(counts))
	var maxPos uint64
	var whole float64 // the sum of round(t/unit)·unit, exact
	rest := a.rest
	edges := &a.edges
	ne := 0
	for i, x := range xs {
		t := off + float64(mul*x)
		v := uint64(int64(t * pos)) // t >= 0: truncation is the floor
		if j := v >> binFrac; j < n && (v+1)&(1<<binFrac-1) > 2 {
			counts[j]++
		} else {
			edges[ne&(chunk-1)] = uint16(i)
			ne++
		}
		maxPos = max(maxPos, v)
		r := float64(t+magic) - magic
		whole += r
		rest += t - r
	}
	for _, i := range edges[:ne] {
		j := a.b.bin(off + float64(mul*xs[i]))
		if j >= len(counts) { // rounding reached the unattained horizon
			counts = append(counts, make([]int, j+1-len(counts))...)
		}
		counts[j]++
	}
	if maxPos >= a.maxPos {
		mx := a.max
		for _, x := range xs {
			if t := off + float64(mul*x); t > mx {
				mx = t
			}
		}
		a.max, a.maxPos = mx, uint64(int64(mx*pos))
	}
	lo, carry := bits.Add64(a.fixed[1], uint64(whole/a.unit), 0)
	a.fixed = [2]uint64{a.fixed[0] + carry, lo}
	a.counts, a.rest = counts, rest
	if a.keep {
		for _, x := range xs {
			a.arrivals = append(a.arrivals, off+float64(mul*x))
		}
	}
}

// sum returns the sum of the arrivals, fixed·unit + rest correctly
// rounded: fixed in three pieces of at most 52 bits, each exact as a
// float64 times a power of two, added exactly by fsum.
func (a *accumulator) sum() float64 {
	const m = 1<<52 - 1
	hi, lo := a.fixed[0], a.fixed[1]
	return fsum([4]float64{
		math.Ldexp(float64(hi>>40), 104) * a.unit,
		math.Ldexp(float64((lo>>52|hi<<12)&m), 52) * a.unit,
		float64(lo&m) * a.unit,
		a.rest,
	})
}

// fsum returns the correctly rounded sum of xs (round half to even), as
// CPython's math.fsum: Shewchuk's exact partials, then their sum with
// the half-way correction. xs are finite and their sum does not overflow.
func fsum(xs [4]float64) float64 {
	var p [4]float64
	n := 0
	for _, x := range xs {
		i := 0
		for _, y := range p[:n] {
			if math.Abs(x) < math.Abs(y) {
				x, y = y, x
			}
			hi := x + y
			lo := y - (hi - x)
			if lo != 0 {
				p[i] = lo
				i++
			}
			x = hi
		}
		p[i] = x
		n = i + 1
	}
	hi := p[n-1]
	n--
	var lo float64
	for n > 0 {
		x, y := hi, p[n-1]
		n--
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	if n > 0 && (lo < 0 && p[n-1] < 0 || lo > 0 && p[n-1] > 0) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}
