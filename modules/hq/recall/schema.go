package recall

// Head office's recall collections (HQ's own data dir; none of them exists in a city's).
const (
	// Recalls is one row per recall head office made across its cities.
	Recalls      = "hq_recalls"
	RecallBy     = "by"     // lot | model | manufacturer (schema.PackRecallBys)
	RecallValue  = "value"  // the lot, model or manufacturer
	RecallReason = "reason" // in words, as the cities' recall asks
	RecallActor  = "actor"  // relation → users (HQ's), "" once the user is gone
	RecallAt     = "at"

	// Sends is one row per recall and city: the recall's way to that city.
	Sends            = "hq_recall_sends"
	SendRecall       = "recall"       // relation → hq_recalls (cascade)
	SendCity         = "city"         // the city's id (text: a city deleted later keeps its row)
	SendCityName     = "cityName"     // the city's name when the recall was made
	SendState        = "send"         // pending | sent | failed
	SendAttempts     = "attempts"     // how many times head office sent it
	SendError        = "error"        // the last attempt's failure in words ("" when none)
	SendCityRecallID = "cityRecallId" // the city's pack_recalls id (its answer), "" when none
	SendSentAt       = "sentAt"       // when the city answered for good
	SendStatus       = "lastStatus"   // the last HTTP status the city answered (0: none)
)

// Send states.
const (
	SendPending = "pending"
	SendSent    = "sent"
	SendFailed  = "failed"
)

// SendStates are every send state.
var SendStates = []string{SendPending, SendSent, SendFailed}
