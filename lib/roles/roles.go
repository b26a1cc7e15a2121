// Package roles holds SwapBay's role and approval vocabulary and the one helper that decides
// who counts as an administrator (spec part 1 §6).
package roles

// The four roles of spec part 1 §3. "corporate_liason" is the spec's spelling, kept as data.
const (
	Driver      = "driver"
	Admin       = "admin"
	MasterAdmin = "master_admin"
	Liaison     = "corporate_liason"
)

// All lists the roles in the order the UI offers them.
var All = []string{Driver, Admin, MasterAdmin, Liaison}

// Approval states of a user (spec part 2 §3).
const (
	Pending   = "pending"
	Approved  = "approved"
	Rejected  = "rejected"
	Suspended = "suspended"
)

// ApprovalStates lists every approval value.
var ApprovalStates = []string{Pending, Approved, Rejected, Suspended}

// IsAdmin reports whether role may use the administration area (admin or master_admin).
func IsAdmin(role string) bool { return role == Admin || role == MasterAdmin }

// IsValid reports whether role is one of the four roles.
func IsValid(role string) bool {
	for _, r := range All {
		if r == role {
			return true
		}
	}
	return false
}

// CanHoldBatteries reports whether a user of role may be given batteries (part 2 §5:
// eligible drivers have role driver, admin or master_admin).
func CanHoldBatteries(role string) bool { return role == Driver || IsAdmin(role) }

// BlockedMessage is the 403 message for a signed-in user who is not approved.
func BlockedMessage(approval string) string {
	switch approval {
	case Rejected:
		return "Account rejected"
	case Suspended:
		return "Account suspended"
	default:
		return "Account pending approval"
	}
}
