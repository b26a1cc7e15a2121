// Package reqx decodes SwapBay's request bodies (DESIGN.md §5): a size-limited JSON body,
// bounded JSON integers for every count, and text fields cleaned of control characters.
// Handlers decode with it; services validate (the range checks below return apierr errors
// that name the field, so a service can call them too).
//
// It is a leaf package: it imports only lib/apierr and lib/clock.
package reqx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
)

// Bounds of numbers in requests (DESIGN.md §5 "Numbers are bounded").
const (
	MaxCount = 10_000    // any battery count in one request
	MaxFleet = 1_000_000 // fleet totals and override targets
)

// Messages of counts shared by several routes (the spec's wording).
const (
	MsgQuantityRequired = "Quantity is required"
	MsgCountInvalid     = "Must be a valid number 0 or greater"
)

// Messages for counts above the bounds (the spec's own messages cover the lower bounds).
var (
	MsgCountTooLarge = fmt.Sprintf("Must be at most %s", formatThousands(MaxCount))
	MsgFleetTooLarge = fmt.Sprintf("Must be at most %s", formatThousands(MaxFleet))
)

// formatThousands writes n with comma thousands separators (10000 → "10,000").
func formatThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Text limits.
const (
	MaxNotes = 2000
	MaxName  = 100
)

// DefaultBodyLimit is the largest JSON body an ordinary route accepts.
const DefaultBodyLimit = 64 << 10

// Messages of the decoder.
const (
	MsgBodyTooLarge = "Request body is too large"
	MsgBodyUnread   = "Could not read the request body"
	MsgBodyNotJSON  = "The request body is not valid JSON"
	MsgNotJSONType  = "Send the request body as JSON (Content-Type: application/json)"
)

// IsJSON reports whether r's body is JSON by its Content-Type: none, or application/json
// (parameters such as charset allowed). It is the one definition of a JSON body: Decode and
// the idempotency step both use it, so a keyed body is never parsed as JSON behind the key's
// back.
func IsJSON(r *http.Request) bool {
	ct := strings.TrimSpace(r.Header.Get("Content-Type"))
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// RequireJSON refuses a request whose Content-Type is not JSON (IsJSON): 415
// unsupported_media_type.
func RequireJSON(r *http.Request) error {
	if IsJSON(r) {
		return nil
	}
	return apierr.NewCode(http.StatusUnsupportedMediaType, "", MsgNotJSONType, apierr.CodeUnsupportedMediaType)
}

// Decode reads the request's JSON body into dst: a Content-Type other than JSON is a 415
// (RequireJSON), over limit bytes (DefaultBodyLimit when limit <= 0) a 413, malformed JSON a
// 400, a value of the wrong JSON type a 400 naming the field. An empty body leaves dst as it
// is.
func Decode(e *core.RequestEvent, dst any, limit int64) error {
	if err := RequireJSON(e.Request); err != nil {
		return err
	}
	if limit <= 0 {
		limit = DefaultBodyLimit
	}
	body, err := io.ReadAll(http.MaxBytesReader(e.Response, e.Request.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return apierr.TooLarge(MsgBodyTooLarge)
		}
		return apierr.Invalid("", MsgBodyUnread)
	}
	return DecodeBytes(body, dst)
}

// DecodeBytes is Decode on a body already read (used by fuzz targets and tests).
func DecodeBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return apierr.Invalid(typeErr.Field, TypeMessage(typeErr.Field, typeErr.Type))
		}
		return apierr.Invalid("", MsgBodyNotJSON)
	}
	return nil
}

// fieldWords names a body field in words where its JSON name alone would not say it.
var fieldWords = map[string]string{
	"serials": "scanned serials",
	"toCity":  "city",
}

// FieldWords is a JSON field's name in words: camelCase split and lowered ("deadBatteries" →
// "dead batteries"), or fieldWords' name for it.
func FieldWords(name string) string {
	if w, ok := fieldWords[name]; ok {
		return w
	}
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || r == '-':
			b.WriteRune(' ')
		case unicode.IsUpper(r):
			if i > 0 {
				b.WriteRune(' ')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// kindWords is what a value of Go type t is, in words ("text", "a number", …).
func kindWords(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	default:
		return "an object"
	}
}

// TypeMessage is the refusal of a value of the wrong JSON type at the body path field
// ("serials.0", "enabled", "lines.2.quantity"), in words: which field and what it must be,
// "Each scanned serial must be text", "Enabled must be true or false". The field's data key
// stays the path itself.
func TypeMessage(field string, t reflect.Type) string {
	parts := strings.Split(field, ".")
	// the last named part, and whether an index follows it (one item of a list)
	name, item := "", false
	for i := len(parts) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(parts[i]); err == nil {
			if name == "" {
				item = true
			}
			continue
		}
		name = parts[i]
		break
	}
	if name == "" {
		return "A value must be " + kindWords(t)
	}
	words := FieldWords(name)
	if item {
		return "Each " + singular(words) + " must be " + kindWords(t)
	}
	return strings.ToUpper(words[:1]) + words[1:] + " must be " + kindWords(t)
}

// singular is words' last word without a plural s ("scanned serials" → "scanned serial").
func singular(words string) string {
	switch {
	case strings.HasSuffix(words, "ies"):
		return strings.TrimSuffix(words, "ies") + "y"
	case strings.HasSuffix(words, "ss"):
		return words
	case strings.HasSuffix(words, "s"):
		return strings.TrimSuffix(words, "s")
	}
	return words
}

// Int is a JSON integer field. Only a literal JSON integer (digits with an optional minus,
// no fraction, no exponent, no quotes) is Valid; null, an empty string (what a cleared form
// field sends: spec part 1 §5 "empty counts as 0") and an absent field leave Present false.
// Unmarshalling never fails, so the field's own message can be given by the range check
// instead of a generic binding error.
type Int struct {
	Present bool
	Valid   bool
	V       int64
}

// UnmarshalJSON records the value; see Int.
func (i *Int) UnmarshalJSON(b []byte) error {
	*i = Int{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) || isBlankString(b) {
		return nil
	}
	i.Present = true
	if !isJSONInteger(b) {
		return nil
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return nil // out of int64 range: present but not valid
	}
	i.Valid, i.V = true, v
	return nil
}

// isBlankString reports whether b is a JSON string holding only spaces.
func isBlankString(b []byte) bool {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return false
	}
	return len(bytes.TrimSpace(b[1:len(b)-1])) == 0
}

func isJSONInteger(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return len(b) > 0 && allDigits(b) // too long: still digits, ParseInt reports range
	}
	return allDigits(b)
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// NotAnInteger is what Or gives for a field that is present but not a JSON integer (a
// float, a string, an exponent, a value beyond int64). It is below every lower bound, so a
// service's range check refuses it with the field's own message.
const NotAnInteger = math.MinInt

// Or hands a decoded field to a service without checking its range (services validate,
// DESIGN.md §5): def when absent, the value when it is a JSON integer, NotAnInteger
// otherwise.
func (i Int) Or(def int) int {
	switch {
	case !i.Present:
		return def
	case !i.Valid:
		return NotAnInteger
	}
	return int(i.V)
}

// OrNil is Or for an optional field whose absence must be told apart: nil when absent.
func (i Int) OrNil() *int {
	if !i.Present {
		return nil
	}
	v := i.Or(0)
	return &v
}

// Count checks a count a service received (see Or): below lo (which includes NotAnInteger)
// is refused with msg, above hi with tooLargeMsg; both name field.
func Count(field string, v, lo, hi int, msg, tooLargeMsg string) error {
	if v < lo {
		return apierr.Invalid(field, msg)
	}
	if v > hi {
		return apierr.Invalid(field, tooLargeMsg)
	}
	return nil
}

// In returns the value when it is present, a JSON integer and within [lo, hi]; otherwise an
// Invalid error naming field with msg.
func (i Int) In(field string, lo, hi int, msg string) (int, error) {
	if !i.Present || !i.Valid || i.V < int64(lo) || i.V > int64(hi) {
		return 0, apierr.Invalid(field, msg)
	}
	return int(i.V), nil
}

// InOr is In for an optional field: absent (or null) gives def.
func (i Int) InOr(field string, lo, hi, def int, msg string) (int, error) {
	if !i.Present {
		return def, nil
	}
	return i.In(field, lo, hi, msg)
}

// Ptr is InOr for an optional field whose absence must be told apart: nil when absent.
func (i Int) Ptr(field string, lo, hi int, msg string) (*int, error) {
	if !i.Present {
		return nil, nil
	}
	v, err := i.In(field, lo, hi, msg)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// MsgNotesTooLong is the message for notes over MaxNotes characters.
var MsgNotesTooLong = fmt.Sprintf("Notes can be at most %d characters", MaxNotes)

// NotesTooLong refuses field's text over MaxNotes characters by the field's own name:
// MsgNotesTooLong for notes, "A reason can be at most 2000 characters" for reason.
func NotesTooLong(field string) string {
	switch field {
	case "", "notes":
		return MsgNotesTooLong
	case "reason":
		return fmt.Sprintf("A reason can be at most %d characters", MaxNotes)
	case "note":
		return fmt.Sprintf("A note can be at most %d characters", MaxNotes)
	}
	w := FieldWords(field)
	return fmt.Sprintf("%s can be at most %d characters", strings.ToUpper(w[:1])+w[1:], MaxNotes)
}

// Notes trims s and strips control characters (other than newline and tab) and bidi
// overrides; blank notes are refused with requiredMsg when it is not empty; notes longer
// than MaxNotes characters are refused.
func Notes(field, s, requiredMsg string) (string, error) {
	s = strings.TrimSpace(StripControls(s))
	if s == "" && requiredMsg != "" {
		return "", apierr.Invalid(field, requiredMsg)
	}
	if utf8.RuneCountInString(s) > MaxNotes {
		return "", apierr.Invalid(field, NotesTooLong(field))
	}
	return s, nil
}

// MsgNameCharacters refuses names with control characters or bidi overrides.
const MsgNameCharacters = "Names cannot contain control or direction-override characters"

// Name trims s and refuses it when it holds a control character or a bidi override
// (MsgNameCharacters), is blank (requiredMsg) or longer than MaxName characters (tooLongMsg).
func Name(field, s, requiredMsg, tooLongMsg string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", apierr.Invalid(field, requiredMsg)
	}
	if utf8.RuneCountInString(s) > MaxName {
		return "", apierr.Invalid(field, tooLongMsg)
	}
	if !utf8.ValidString(s) || strings.IndexFunc(s, isForbidden) >= 0 {
		return "", apierr.Invalid(field, MsgNameCharacters)
	}
	return s, nil
}

// StripControls removes control characters other than newline and tab, bidi overrides and
// invalid UTF-8 from s.
func StripControls(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && isForbidden(r) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "") {
		if r == '\n' || r == '\t' || !isForbidden(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isForbidden: C0/C1 controls (\r included) and the Unicode bidi embedding, override and
// isolate characters (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F, U+061C).
func isForbidden(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// Digits reads a setting sent as text (settings are key/value text pairs, spec part 2 §3): a
// run of decimal digits is its value (math.MaxInt when it is too long to represent, so the
// range check calls it too large); anything else (a sign, a fraction, an exponent, letters)
// gives NotAnInteger, which every range refuses.
func Digits(text string) int {
	if text == "" || strings.Trim(text, "0123456789") != "" {
		return NotAnInteger
	}
	n, err := strconv.Atoi(text)
	if err != nil {
		return math.MaxInt
	}
	return n
}
