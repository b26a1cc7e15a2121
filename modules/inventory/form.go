package inventory

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// OptInt is a whole number in a JSON body that the forms may send as a number or a numeric
// string (spec part 1 §5: "strings parsed as whole numbers"). Present says the field was
// there and not empty; Valid says it parsed as a whole number. Handlers turn an invalid or
// missing value into the spec's message instead of a generic binding error.
type OptInt struct {
	Present bool
	Valid   bool
	V       int
}

// UnmarshalJSON accepts 12, "12", " 12 ", "" and null ("" and null mean absent).
func (o *OptInt) UnmarshalJSON(b []byte) error {
	*o = OptInt{}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return nil
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	}
	o.Present = true
	if n, err := strconv.Atoi(s); err == nil {
		o.Valid, o.V = true, n
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == float64(int(f)) {
		o.Valid, o.V = true, int(f)
	}
	return nil
}

// Or returns the value, or def when absent. Check Valid first for present values.
func (o OptInt) Or(def int) int {
	if !o.Present {
		return def
	}
	return o.V
}

// Ptr returns a pointer to the value, nil when absent.
func (o OptInt) Ptr() *int {
	if !o.Present {
		return nil
	}
	v := o.V
	return &v
}

// NonNegative reports whether the value is absent or a whole number ≥ 0.
func (o OptInt) NonNegative() bool { return !o.Present || (o.Valid && o.V >= 0) }
