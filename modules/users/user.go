package users

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
)

// JSON is the user as every SwapBay route returns it (GET /api/auth/user, login, register,
// the admin user routes).
type JSON struct {
	ID                             string  `json:"id"`
	Email                          string  `json:"email"`
	FirstName                      string  `json:"firstName"`
	LastName                       string  `json:"lastName"`
	Role                           string  `json:"role"`
	IsApproved                     string  `json:"isApproved"`
	PayReductionPercentage         int     `json:"payReductionPercentage"`
	AdminPoolWithholdingPercentage float64 `json:"adminPoolWithholdingPercentage"`
	MustResignTerms                bool    `json:"mustResignTerms"`
}

// ToJSON returns rec (a users record) in the shape the API returns. It never includes the
// password hash or token key.
func ToJSON(rec *core.Record) JSON {
	return JSON{
		ID:                             rec.Id,
		Email:                          rec.Email(),
		FirstName:                      rec.GetString(schema.UserFirstName),
		LastName:                       rec.GetString(schema.UserLastName),
		Role:                           rec.GetString(schema.UserRole),
		IsApproved:                     rec.GetString(schema.UserIsApproved),
		PayReductionPercentage:         rec.GetInt(schema.UserPayReductionPercentage),
		AdminPoolWithholdingPercentage: rec.GetFloat(schema.UserAdminPoolWithholdingPct),
		MustResignTerms:                rec.GetBool(schema.UserMustResignTerms),
	}
}

// AdminJSON is one row of the admin users lists: the user plus when it was created and the
// state of its latest signed agreement.
type AdminJSON struct {
	JSON
	Created     string      `json:"created"`
	TermsStatus TermsStatus `json:"termsStatus"`
}

// TermsStatus summarises a user's latest agreement. Signed is false (and the other fields
// empty) when the user never signed, e.g. accounts created with terms bypassed.
type TermsStatus struct {
	Signed      bool   `json:"signed"`
	PDFStatus   string `json:"pdfStatus"`
	SignedAt    string `json:"signedAt"`
	Version     string `json:"version"`
	AgreementID string `json:"agreementId"`
}

// timeLayout is RFC 3339 with milliseconds: every browser's Date parses it.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// formatTime renders a record date in timeLayout (UTC), or "".
func formatTime(rec *core.Record, field string) string {
	dt := rec.GetDateTime(field)
	if dt.IsZero() {
		return ""
	}
	return dt.Time().UTC().Format(timeLayout)
}
