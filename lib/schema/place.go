package schema

import "strings"

// PlaceLabel is how a pack's location account reads on the pack pages, the city's and head
// office's alike: from the account's kind, its assignment type and its holder's name.
func PlaceLabel(kind, assignmentType, name string) string {
	switch kind {
	case AccountKindReady:
		return "Ready"
	case AccountKindWaiting:
		return "Waiting (dead)"
	case AccountKindSession, AccountKindUntracked:
		return "On a charger"
	case AccountKindHolder:
		if name == "" {
			name = "A former user"
		}
		return name + " (" + strings.ReplaceAll(assignmentType, "_", " ") + ")"
	case AccountKindUnassigned:
		return "In the field (unassigned)"
	case AccountKindQuarantine:
		return "Quarantine"
	}
	return "Outside the bay"
}
