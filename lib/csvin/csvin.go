// Package csvin reads the CSV files the admin pages upload (a pack import, a readings import)
// the one way: a UTF-8 byte-order mark (a spreadsheet's export) is dropped, rows may differ in
// length and cells lose their leading spaces.
package csvin

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"swapbay/lib/apierr"
)

// Field is the request field the refusals of an uploaded CSV name.
const Field = "csv"

// Open starts reading text and reads its header row. A file with no row is refused with empty,
// one whose header does not parse with unreadable (400s on Field); the reader then gives the
// rows below the header.
func Open(text, empty, unreadable string) (*csv.Reader, []string, error) {
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "\ufeff")))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, apierr.Invalid(Field, empty)
	}
	if err != nil {
		return nil, nil, apierr.Invalid(Field, unreadable)
	}
	return r, header, nil
}

// Blank reports whether every cell of rec is blank (a spreadsheet's empty line): it is skipped.
func Blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
