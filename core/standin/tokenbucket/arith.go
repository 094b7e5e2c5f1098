package tokenbucket

import "math"

// seconds is time.Duration.Seconds: whole seconds and the rest apart, so
// large durations keep their nanoseconds.
func seconds(d int64) float64 {
	sec := d / 1e9
	nsec := d % 1e9
	return float64(sec) + float64(nsec)/1e9
}

// sub returns t - u, saturated at the ends of int64 (time.Time.Sub).
func sub(t, u int64) int64 {
	d := t - u
	if (d < t) != (u > 0) { // overflow
		if u > 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return d
}

// add returns t + d saturated at the ends of int64.
func add(t, d int64) int64 {
	s := t + d
	if (s > t) != (d > 0) { // overflow
		if d > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}
