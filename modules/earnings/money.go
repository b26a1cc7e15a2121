package earnings

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"swapbay/lib/apierr"
)

// Cents is an amount of money in integer cents (DESIGN.md §8). In JSON it is a number with
// two decimals (125 cents ⇄ 1.25).
type Cents int64

// MarshalJSON writes c as a JSON number with two decimals.
func (c Cents) MarshalJSON() ([]byte, error) { return []byte(c.String()), nil }

// String formats c with two decimals ("1.25", "-0.50").
func (c Cents) String() string {
	sign := ""
	v := int64(c)
	if v < 0 {
		sign, v = "-", -v
	}
	return sign + strconv.FormatInt(v/100, 10) + "." + pad2(v%100)
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// MaxRateCents bounds a pay rate: 1,000,000.00 per task, far above any real rate and far
// below where a week's arithmetic could overflow.
const MaxRateCents = 100_000_000

// money is a JSON number of 0 or more with at most two decimals, read exactly from its
// literal (never through a float): a rate in a request.
var money = regexp.MustCompile(`^(0|[1-9]\d{0,8})(\.\d{1,2})?$`)

// Amount is a pay rate as a request carries it: a JSON number ≥ 0 with at most 2 decimals.
// Set reports whether the field was present.
type Amount struct {
	Cents Cents
	Set   bool
	bad   bool
}

// UnmarshalJSON reads the number's literal; anything else (a string, a negative, an exponent,
// a third decimal, null) marks the amount invalid, refused by Check.
func (a *Amount) UnmarshalJSON(b []byte) error {
	a.Set = true
	lit := string(bytes.TrimSpace(b))
	if !money.MatchString(lit) || !json.Valid(b) {
		a.bad = true
		return nil
	}
	whole, frac, _ := strings.Cut(lit, ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	frac = (frac + "00")[:2]
	f, _ := strconv.ParseInt(frac, 10, 64)
	if c := w*100 + f; c <= MaxRateCents {
		a.Cents = Cents(c)
	} else {
		a.bad = true
	}
	return nil
}

// Check returns the amount, or an apierr.Invalid on field when it is missing or invalid.
func (a Amount) Check(field string) (Cents, error) {
	if !a.Set || a.bad {
		return 0, apierr.Invalid(field, MsgRateInvalid)
	}
	return a.Cents, nil
}

// Tenths is a percentage with one decimal, in tenths (12.5% ⇄ 125): the pool withholding.
type Tenths int

// MarshalJSON writes t as a JSON number with at most one decimal.
func (t Tenths) MarshalJSON() ([]byte, error) {
	if t%10 == 0 {
		return []byte(strconv.Itoa(int(t) / 10)), nil
	}
	return []byte(strconv.FormatFloat(float64(t)/10, 'f', 1, 64)), nil
}

var percentTenths = regexp.MustCompile(`^(0|[1-9]\d{0,2})(\.\d)?0*$`)

// ParseTenths reads a JSON number literal from 0 to 100 in steps of 0.1 ("12.5", "100",
// "7.50"); ok is false for anything else.
func ParseTenths(b []byte) (Tenths, bool) {
	lit := string(bytes.TrimSpace(b))
	if !percentTenths.MatchString(lit) {
		return 0, false
	}
	whole, frac, _ := strings.Cut(lit, ".")
	w, _ := strconv.Atoi(whole)
	t := w * 10
	if frac != "" {
		t += int(frac[0] - '0')
	}
	if t > 1000 {
		return 0, false
	}
	return Tenths(t), true
}

// percentOf returns v × (100 − pct)/100 in cents, rounded half up once (v ≥ 0, pct 0–100).
func percentOf(v Cents, pct int) Cents { return divHalfUp(int64(v)*int64(100-pct), 100) }

// tenthsOf returns v × (1000 − t)/1000 in cents, rounded half up once (v ≥ 0, t 0–1000).
func tenthsOf(v Cents, t Tenths) Cents { return divHalfUp(int64(v)*int64(1000-t), 1000) }

// shares splits pool (≥ 0 cents) among n > 0 members to the cent, by largest remainder:
// each gets pool / n rounded down, and the cents left over (pool mod n, fewer than n) go one
// each to the first members in the order given. The shares always sum to pool exactly; any
// two differ by at most a cent.
func shares(pool Cents, n int) []Cents {
	out := make([]Cents, n)
	each, left := int64(pool)/int64(n), int64(pool)%int64(n)
	for i := range out {
		out[i] = Cents(each)
		if int64(i) < left {
			out[i]++
		}
	}
	return out
}

// divHalfUp divides a ≥ 0 by b > 0 rounding half up: 12.5 → 13, 12.49 → 12.
func divHalfUp(a, b int64) Cents { return Cents((2*a + b) / (2 * b)) }
