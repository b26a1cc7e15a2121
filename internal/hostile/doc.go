// Package hostile holds the API tests of hostile input that span every module (DESIGN.md
// §5 "Numbers are bounded"): every number field of every mutation route refuses values a
// client should never send, changes nothing, and leaves every read route answering; and a
// balance damaged behind the ledger's back is repaired by recalculation or the override.
package hostile
