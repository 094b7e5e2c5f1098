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
	if c.Waves == 1 && !c.KeepArrivals && (c.Strategy == Full || c.Strategy == Equal) {
		// One wave of waits off + mul·random(), nothing kept: each is
		// counted where the generator's words make it (addDraws).
		off, mul := 0.0, c.BaseMS // full: uniform(0, c) = 0 + (c-0)·random(), c = min(cap, base) = base
		if c.Strategy == Equal {
			off, mul = mul/2, mul/2 // equal: c/2 + uniform(0, c/2)
		}
		for left := c.Clients; left > 0; {
			w := r.Words(left)
			if m.Add(len(w) / 2) {
				return Result{}, meter.ErrStopped
			}
			acc.addDraws(w, off, mul)
			left -= len(w) / 2
		}
	} else {
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
// the accumulator counts with.
const binFrac = 20

// inside reports whether the bin position v, an integer within 2 of an
// arrival's exact t·2^binFrac/w (accumulator), is at least 2 from both
// edges of its bin and that bin below n: its low binFrac bits are in
// [2, 2^binFrac-2]. Then the exact position is in the same bin, and
// v>>binFrac is Bin's bin.
func inside(v, n uint64) bool { return v>>binFrac < n && (v+1)&(1<<binFrac-1) > 2 }

// accumulator counts arrivals in bins, keeps the latest, and sums them.
//
// The bin of t: a fixed-point position v, an integer below 2^48 (Run
// allows at most 2^27 bins) within 2 of the exact t·2^binFrac/w, whose
// top bits are Bin's bin when inside says so; otherwise (near an edge,
// about 3 arrivals in 2^20, or beyond the last bin) binner.bin bins the
// arrival, exactly, after the loop. addAll makes v = floor(t·pos):
// scaling 1/w by 2^binFrac is exact and t·(1/w) is within 2 ulps of t/w,
// at most 2^-24 (t/w < 2^28), so the product is within 2^-4 of the exact
// position and its floor within 1.1. addDraws makes v from the draw
// itself (drawPos).
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
	// the arrivals of a chunk that inside left to binner.bin
	edges [chunk]float64
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

// split adds the arrival t to the sums: round(t/unit)·unit to whole
// (exactly) and the remainder to rest.
func split(whole, rest, t, magic float64) (float64, float64) {
	r := float64(t+magic) - magic
	return whole + r, rest + (t - r)
}

// addAll counts the arrivals off + mul·xs[i] (the float expression, so
// off 0 and mul 1 give xs[i] itself); xs has at most chunk elements.
//
// Its loop makes the arrival, its bin and its share of the sum with no
// call (a call in the loop made Go keep its sums in memory). It converts
// t·pos to an integer where addDraws reads a float's bits: natively the
// faster of the two, in WebAssembly the slower (a checked conversion
// against a trip through memory). An arrival that inside refuses counts
// for nothing in the loop; it goes to a.edges, binned after the loop.
// The latest arrival is looked for after the loop, only when the largest
// v (which grows with t) reaches the latest arrival's: rarely, for
// random waits. Arrivals are made again there from the same expression,
// and so are the same floats.
func (a *accumulator) addAll(xs []float64, off, mul float64) {
	pos, magic := a.pos, a.magic
	counts := a.counts
	n := uint64(len(counts))
	var maxPos uint64
	var whole float64 // the sum of round(t/unit)·unit, exact
	rest := a.rest
	edges := &a.edges
	ne := 0
	for _, x := range xs {
		t := off + float64(mul*x)
		v := uint64(int64(t * pos)) // t >= 0: truncation is the floor
		if inside(v, n) {
			counts[v>>binFrac]++
		} else {
			edges[ne&(chunk-1)] = t // ne < chunk: the mask only spares a bounds check
			ne++
		}
		maxPos = max(maxPos, v)
		whole, rest = split(whole, rest, t, magic)
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
	a.settle(counts, ne, whole, rest)
	if a.keep {
		for _, x := range xs {
			a.arrivals = append(a.arrivals, off+float64(mul*x))
		}
	}
}

// drawPos makes the bin position v of the arrival t = off + mul·(d/2^53)
// from the draw d itself (pyrand.Bits53), alongside t rather than after
// it: v = (d·k + c) - 2^52 with k = mul·pos/2^53 and c = off·pos + 2^52,
// each operation rounded. Near 2^52 the floats are the integers, so c is
// off·pos rounded to an integer (within 1/2) and so is the sum (1/2
// more); the products, below 2^48, are within a few roundings of 2^-53
// of the exact ones, 2^-4 in all with t's own roundings: v is within 1.2
// of t's exact position, as inside needs. The sum is in [2^52, 2^53), so
// its bits less those of 2^52 are v: no conversion of a float to an
// integer, which WebAssembly checks for overflow on the way.
type drawPos struct{ k, c float64 }

// bits52 is math.Float64bits(0x1p52).
const bits52 = 0x4330000000000000

func newDrawPos(pos, off, mul float64) drawPos {
	// float64(…) rounds each product on its own: no fused multiply-add
	return drawPos{k: mul * pos * 0x1p-53, c: float64(off*pos) + 0x1p52}
}

func (p drawPos) of(d uint64) uint64 {
	return math.Float64bits(float64(float64(int64(d))*p.k)+p.c) - bits52
}

// addDraws counts the arrivals off + mul·x for the draws x that the
// generator's words ws make (pyrand.Random.Words: x = Float53(Bits53(w0,
// w1)) for each pair), exactly as addAll counts them from the floats:
// the same counts, sums and latest arrival. off >= 0 and mul > 0 (full
// and equal jitter), ws has at most 2·chunk words, and nothing is kept.
//
// It takes four draws at a time while none is near an edge (inside), so
// that the loop's turn is its only jump back: in WebAssembly Go compiles
// a jump back, which the join after an if/else can be too, to a jump
// through the function's table of blocks, and four draws share it. A
// group with an edge, and the last draws, go one at a time. The latest
// arrival is that of the largest draw (off + mul·x grows with x).
func (a *accumulator) addDraws(ws []uint32, off, mul float64) {
	if len(ws) < 2 {
		return // no draw, and so no latest arrival (dmax 0 would make one)
	}
	p := newDrawPos(a.pos, off, mul)
	magic := a.magic
	counts := a.counts
	n := uint64(len(counts))
	var dmax uint64   // the largest draw, as pyrand.Bits53 gives it
	var whole float64 // the sum of round(t/unit)·unit, exact
	rest := a.rest
	edges := &a.edges
	ne := 0
	for len(ws) > 0 {
		for len(ws) >= 8 {
			w := (*[8]uint32)(ws)
			d0, d1 := pyrand.Bits53(w[0], w[1]), pyrand.Bits53(w[2], w[3])
			d2, d3 := pyrand.Bits53(w[4], w[5]), pyrand.Bits53(w[6], w[7])
			t0, v0 := off+float64(mul*pyrand.Float53(d0)), p.of(d0)
			t1, v1 := off+float64(mul*pyrand.Float53(d1)), p.of(d1)
			t2, v2 := off+float64(mul*pyrand.Float53(d2)), p.of(d2)
			t3, v3 := off+float64(mul*pyrand.Float53(d3)), p.of(d3)
			if !inside(v0, n) || !inside(v1, n) || !inside(v2, n) || !inside(v3, n) {
				break
			}
			ws = ws[8:]
			dmax = max(dmax, d0, d1, d2, d3)
			counts[v0>>binFrac]++
			counts[v1>>binFrac]++
			counts[v2>>binFrac]++
			counts[v3>>binFrac]++
			whole, rest = split(whole, rest, t0, magic)
			whole, rest = split(whole, rest, t1, magic)
			whole, rest = split(whole, rest, t2, magic)
			whole, rest = split(whole, rest, t3, magic)
		}
		for k := 0; k < 4 && len(ws) >= 2; k++ {
			d := pyrand.Bits53(ws[0], ws[1])
			ws = ws[2:]
			t := off + float64(mul*pyrand.Float53(d))
			if v := p.of(d); inside(v, n) {
				counts[v>>binFrac]++
			} else {
				edges[ne&(chunk-1)] = t // ne < chunk, as in addAll
				ne++
			}
			dmax = max(dmax, d)
			whole, rest = split(whole, rest, t, magic)
		}
	}
	if t := off + float64(mul*pyrand.Float53(dmax)); t > a.max {
		a.max, a.maxPos = t, uint64(int64(t*a.pos))
	}
	a.settle(counts, ne, whole, rest)
}

// settle ends a chunk: it bins the ne arrivals in a.edges exactly (and
// extends counts when rounding reached the unattained horizon), adds the
// chunk's whole (exact, below 2^52·unit) to the fixed-point sum and
// keeps counts and rest.
func (a *accumulator) settle(counts []int, ne int, whole, rest float64) {
	for _, t := range a.edges[:ne] {
		j := a.b.bin(t)
		if j >= len(counts) {
			counts = append(counts, make([]int, j+1-len(counts))...)
		}
		counts[j]++
	}
	lo, carry := bits.Add64(a.fixed[1], uint64(whole/a.unit), 0)
	a.fixed = [2]uint64{a.fixed[0] + carry, lo}
	a.counts, a.rest = counts, rest
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
