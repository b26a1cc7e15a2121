package inventory

// Unexported ledger steps the external tests compare with PocketBase's own record save.
var (
	InsertMovement    = insertMovement
	SetMovementFields = setMovementFields
)

// MovementJSONFields are the fields Movement.MarshalJSON writes itself.
var MovementJSONFields = movementJSONFields

// BalanceQueries are the queries that sum an account's entries (their plans are tested).
var BalanceQueries = map[string]string{"recalculate": recalcSQL, "repair": repairSQL}
