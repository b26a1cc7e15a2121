package reqx_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
)

func decodeInt(t testing.TB, raw string) reqx.Int {
	t.Helper()
	var f struct {
		N reqx.Int `json:"n"`
	}
	if err := reqx.DecodeBytes([]byte(`{"n":`+raw+`}`), &f); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return f.N
}

func TestIntAcceptsOnlyJSONIntegers(t *testing.T) {
	cases := []struct {
		raw            string
		present, valid bool
		v              int64
	}{
		{`0`, true, true, 0},
		{`3`, true, true, 3},
		{`-1`, true, true, -1},
		{`10000`, true, true, 10000},
		{`9223372036854775807`, true, true, math.MaxInt64},
		{`-9223372036854775808`, true, true, math.MinInt64},
		{`9223372036854775808`, true, false, 0},     // beyond int64
		{`99999999999999999999999`, true, false, 0}, // far beyond
		{`2147483648`, true, true, 2147483648},
		{`1.5`, true, false, 0},
		{`3.0`, true, false, 0},
		{`1e6`, true, false, 0},
		{`1E2`, true, false, 0},
		{`-0`, true, true, 0},
		{`"3"`, true, false, 0},
		{`"abc"`, true, false, 0},
		{`true`, true, false, 0},
		{`[1]`, true, false, 0},
		{`{"v":1}`, true, false, 0},
		{`null`, false, false, 0},
		{`""`, false, false, 0},   // a cleared form field: absent
		{`"  "`, false, false, 0}, // likewise
	}
	for _, c := range cases {
		got := decodeInt(t, c.raw)
		if got.Present != c.present || got.Valid != c.valid || got.V != c.v {
			t.Errorf("%s: got %+v, want present=%v valid=%v v=%d", c.raw, got, c.present, c.valid, c.v)
		}
	}
	var absent struct {
		N reqx.Int `json:"n"`
	}
	if err := reqx.DecodeBytes([]byte(`{}`), &absent); err != nil || absent.N.Present {
		t.Fatalf("absent field: %+v %v", absent.N, err)
	}
}

func TestIntOrAndCount(t *testing.T) {
	if got := decodeInt(t, `null`).Or(7); got != 7 {
		t.Errorf("absent Or(7) = %d", got)
	}
	if got := decodeInt(t, `12`).Or(7); got != 12 {
		t.Errorf("12 Or(7) = %d", got)
	}
	for _, raw := range []string{`1.5`, `"3"`, `1e6`, `9223372036854775808`} {
		if got := decodeInt(t, raw).Or(0); got != reqx.NotAnInteger {
			t.Errorf("%s Or(0) = %d, want NotAnInteger", raw, got)
		}
	}
	if p := decodeInt(t, `null`).OrNil(); p != nil {
		t.Errorf("absent OrNil = %v", *p)
	}
	if p := decodeInt(t, `5`).OrNil(); p == nil || *p != 5 {
		t.Errorf("5 OrNil = %v", p)
	}

	check := func(v int, wantMsg string) {
		t.Helper()
		err := reqx.Count("quantity", v, 1, reqx.MaxCount, "low", "high")
		if wantMsg == "" {
			if err != nil {
				t.Errorf("Count(%d) = %v, want nil", v, err)
			}
			return
		}
		var de *apierr.Error
		if !errors.As(err, &de) || !errors.Is(err, apierr.ErrInvalid) || de.Field != "quantity" || de.Message != wantMsg {
			t.Errorf("Count(%d) = %#v, want Invalid(quantity, %q)", v, err, wantMsg)
		}
	}
	check(1, "")
	check(reqx.MaxCount, "")
	check(0, "low")
	check(-1, "low")
	check(reqx.NotAnInteger, "low")
	check(reqx.MaxCount+1, "high")
	check(math.MaxInt64, "high")
	check(1<<31, "high")
}

func TestIntInInOrPtr(t *testing.T) {
	if v, err := decodeInt(t, `5`).In("q", 1, 10, "m"); err != nil || v != 5 {
		t.Errorf("In 5 = %d %v", v, err)
	}
	for _, raw := range []string{`0`, `11`, `1.5`, `"5"`, `null`} {
		if _, err := decodeInt(t, raw).In("q", 1, 10, "m"); err == nil || apierr.Status(err) != 400 {
			t.Errorf("In %s = %v, want 400", raw, err)
		}
	}
	if v, err := decodeInt(t, `null`).InOr("q", 1, 10, 4, "m"); err != nil || v != 4 {
		t.Errorf("InOr absent = %d %v", v, err)
	}
	if p, err := decodeInt(t, `null`).Ptr("q", 1, 10, "m"); err != nil || p != nil {
		t.Errorf("Ptr absent = %v %v", p, err)
	}
	if p, err := decodeInt(t, `3`).Ptr("q", 1, 10, "m"); err != nil || p == nil || *p != 3 {
		t.Errorf("Ptr 3 = %v %v", p, err)
	}
}

func TestTooLargeMessagesNameTheBounds(t *testing.T) {
	if reqx.MsgCountTooLarge != "Must be at most 10,000" || reqx.MsgFleetTooLarge != "Must be at most 1,000,000" {
		t.Fatalf("messages: %q %q", reqx.MsgCountTooLarge, reqx.MsgFleetTooLarge)
	}
}

func TestDecodeBytes(t *testing.T) {
	var f struct {
		Notes string   `json:"notes"`
		N     reqx.Int `json:"n"`
	}
	if err := reqx.DecodeBytes([]byte(`{"notes":`), &f); apierr.Status(err) != 400 || err.Error() != reqx.MsgBodyNotJSON {
		t.Errorf("bad JSON: %v", err)
	}
	err := reqx.DecodeBytes([]byte(`{"notes":5}`), &f)
	var de *apierr.Error
	if !errors.As(err, &de) || de.Field != "notes" || apierr.Status(err) != 400 {
		t.Errorf("wrong type: %#v", err)
	}
	if err := reqx.DecodeBytes([]byte("   "), &f); err != nil {
		t.Errorf("blank body: %v", err)
	}
	if err := reqx.DecodeBytes([]byte(`{"notes":"x","n":1e400}`), &f); err != nil || f.N.Valid {
		t.Errorf("huge exponent: %+v %v", f.N, err)
	}
}

func TestNotesStripControlsAndBidi(t *testing.T) {
	cases := map[string]string{
		"  fine  ":                        "fine",
		"line one\nline two\tend":         "line one\nline two\tend",
		"bell\a and null\x00 and esc\x1b": "bell and null and esc",
		"cr\r\nlf":                        "cr\nlf",
		"evil \u202Etxt.exe":              "evil txt.exe",
		"iso \u2066x\u2069 lrm\u200e rlm\u200f alm\u061c": "iso x lrm rlm alm",
		"c1 \u0085\u009b":       "c1",
		"bad utf8 \xff\xfe":     "bad utf8",
		"emoji 🔋 and accents é": "emoji 🔋 and accents é",
	}
	for in, want := range cases {
		got, err := reqx.Notes("notes", in, "")
		if err != nil || got != want {
			t.Errorf("Notes(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := reqx.Notes("notes", " \u202E\x00 ", "Notes are required"); err == nil || err.Error() != "Notes are required" {
		t.Errorf("blank after stripping: %v", err)
	}
	if _, err := reqx.Notes("notes", strings.Repeat("é", reqx.MaxNotes), ""); err != nil {
		t.Errorf("2000 characters: %v", err)
	}
	if _, err := reqx.Notes("notes", strings.Repeat("x", reqx.MaxNotes+1), ""); err == nil || err.Error() != reqx.MsgNotesTooLong {
		t.Errorf("2001 characters: %v", err)
	}
}

func TestNameRefusesControlsAndBidi(t *testing.T) {
	ok := map[string]string{"  Ana  ": "Ana", "José María": "José María", "O'Brien-Smith": "O'Brien-Smith", "李": "李"}
	for in, want := range ok {
		if got, err := reqx.Name("firstName", in, "req", "long"); err != nil || got != want {
			t.Errorf("Name(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"Ana\u202Enoj", "Ana\x00", "Ana\nBob", "Ana\tB", "A\u2066B", "A\u200fB", "A\x1bB", "A\xffB", "A\u0085B"} {
		_, err := reqx.Name("firstName", in, "req", "long")
		var de *apierr.Error
		if !errors.As(err, &de) || de.Field != "firstName" || de.Message != reqx.MsgNameCharacters {
			t.Errorf("Name(%q) = %v, want %q", in, err, reqx.MsgNameCharacters)
		}
	}
	if _, err := reqx.Name("firstName", "   ", "req", "long"); err == nil || err.Error() != "req" {
		t.Errorf("blank: %v", err)
	}
	if _, err := reqx.Name("firstName", strings.Repeat("a", reqx.MaxName+1), "req", "long"); err == nil || err.Error() != "long" {
		t.Errorf("too long: %v", err)
	}
}

func TestStripControlsKeepsCleanTextAsIs(t *testing.T) {
	s := "plain text, nothing to do"
	if got := reqx.StripControls(s); got != s {
		t.Fatalf("got %q", got)
	}
}

// FuzzInt: any JSON value decodes without panic; Valid means a literal JSON integer whose
// value round-trips; Or never gives a value outside int64 and NotAnInteger only for
// present, invalid input.
func FuzzInt(f *testing.F) {
	for _, s := range []string{`0`, `-1`, `1.5`, `"3"`, `1e6`, `null`, `9223372036854775807`, `9223372036854775808`, `2147483648`, `""`, `-`, `--1`, `0x10`, `+1`, `007`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var i reqx.Int
		if err := i.UnmarshalJSON(raw); err != nil {
			t.Fatalf("UnmarshalJSON(%q) failed: %v", raw, err)
		}
		if i.Valid {
			if !i.Present {
				t.Fatalf("%q: valid but not present", raw)
			}
			s := strings.TrimSpace(string(raw))
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n != i.V || strings.ContainsAny(s, ".eE+\"") {
				t.Fatalf("%q: valid %d but ParseInt gives %d, %v", raw, i.V, n, err)
			}
		}
		if got := i.Or(1); i.Present && !i.Valid && got != reqx.NotAnInteger {
			t.Fatalf("%q: invalid Or = %d", raw, got)
		}
		_ = reqx.Count("n", i.Or(0), 0, reqx.MaxCount, "low", "high")
	})
}

// FuzzDecode: any body decodes into a form without panic and every refusal is a 400.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"quantity":3,"notes":"x"}`, `{"quantity":9223372036854775807}`, `{"quantity":"3"}`, `{"quantity":1e6}`, `{"quantity":null}`, `{"notes":5}`, `[`, `{"quantity":1.5,"extra":[1,2,{"a":null}]}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var form struct {
			Quantity reqx.Int `json:"quantity"`
			Good     reqx.Int `json:"goodBatteries"`
			Notes    string   `json:"notes"`
		}
		err := reqx.DecodeBytes(body, &form)
		if err != nil && apierr.Status(err) != 400 {
			t.Fatalf("%q: status %d: %v", body, apierr.Status(err), err)
		}
		if err == nil && json.Valid(body) {
			notes, nerr := reqx.Notes("notes", form.Notes, "")
			if nerr == nil && (!utf8.ValidString(notes) || strings.ContainsRune(notes, '\u202E')) {
				t.Fatalf("%q: notes not clean: %q", body, notes)
			}
		}
	})
}

// A value of the wrong JSON type is refused in words naming the field and what it must be;
// the data key stays the body's path (what clients read).
func TestDecodeTypeErrorInWords(t *testing.T) {
	var body struct {
		Serials       []string `json:"serials"`
		Enabled       bool     `json:"enabled"`
		DeadBatteries int      `json:"deadBatteries"`
		Reason        string   `json:"reason"`
		Lines         []struct {
			Quantity int `json:"quantity"`
		} `json:"lines"`
	}
	cases := []struct{ in, field, msg string }{
		{`{"serials":[1]}`, "serials.0", "Each scanned serial must be text"},
		{`{"serials":"SWB-1"}`, "serials", "Scanned serials must be a list"},
		{`{"enabled":"yes"}`, "enabled", "Enabled must be true or false"},
		{`{"deadBatteries":"3"}`, "deadBatteries", "Dead batteries must be a whole number"},
		{`{"reason":5}`, "reason", "Reason must be text"},
		{`{"lines":[{"quantity":"x"}]}`, "lines.0.quantity", "Quantity must be a whole number"},
	}
	for _, c := range cases {
		err := reqx.DecodeBytes([]byte(c.in), &body)
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Field != c.field || ae.Message != c.msg {
			t.Errorf("%s: got %#v, want field %q message %q", c.in, err, c.field, c.msg)
		}
	}
}

// Text over MaxNotes is refused by the field's own name, not always "Notes".
func TestNotesTooLongNamesTheField(t *testing.T) {
	long := strings.Repeat("x", reqx.MaxNotes+1)
	for field, want := range map[string]string{
		"notes":  reqx.MsgNotesTooLong,
		"reason": "A reason can be at most 2000 characters",
		"note":   "A note can be at most 2000 characters",
	} {
		_, err := reqx.Notes(field, long, "")
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Field != field || ae.Message != want {
			t.Errorf("%s: got %#v, want %q", field, err, want)
		}
	}
}
