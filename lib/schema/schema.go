// Package schema names every SwapBay collection and field once, so migrations, modules and
// tests agree on spelling. It is a leaf package: it imports nothing of SwapBay's.
package schema

// Users is PocketBase's auth collection, extended with SwapBay's profile fields.
const (
	Users                         = "users"
	UserFirstName                 = "firstName"
	UserLastName                  = "lastName"
	UserRole                      = "role"
	UserIsApproved                = "isApproved"
	UserPayReductionPercentage    = "payReductionPercentage"
	UserAdminPoolWithholdingPct   = "adminPoolWithholdingPercentage"
	UserMustResignTerms           = "mustResignTerms"
	DefaultPayReductionPercentage = 20
	MaxNameLength                 = 100
	MinPasswordLength             = 6
)

// TermsVersions holds every version of the contractor agreement; exactly one is active.
const (
	TermsVersions      = "terms_versions"
	TermsVersion       = "version"
	TermsTitle         = "title"
	TermsContent       = "content"
	TermsEffectiveDate = "effectiveDate"
	TermsIsActive      = "isActive"
)

// Agreements records each signature of a terms version (DESIGN.md §7).
const (
	Agreements            = "agreements"
	AgreementUser         = "user"
	AgreementTerms        = "terms"
	AgreementTermsVersion = "termsVersion" // the version label as signed, kept if the version is edited
	AgreementTermsHash    = "termsHash"    // SHA-256 hex of the exact HTML signed
	AgreementSignature    = "signature"    // protected PNG file
	AgreementSignedAt     = "signedAt"
	AgreementIP           = "ip"
	AgreementUserAgent    = "userAgent"
	AgreementPDF          = "pdf"       // protected PDF file, empty while generating
	AgreementPDFStatus    = "pdfStatus" // generating | available | failed
	AgreementPDFError     = "pdfError"  // why the last attempt failed
	AgreementPDFAttempts  = "pdfAttempts"
	AgreementPDFNextAt    = "pdfNextAttemptAt" // when the PDF job retries a failed PDF (backoff)
	// The signer as they were when they signed (kept when the account changes or is deleted).
	AgreementFirstName = "firstName"
	AgreementLastName  = "lastName"
	AgreementEmail     = "email"
	// how the signature was made (DESIGN.md §7): "drawn" on the pad, or "typed" (the typed
	// name rendered in a handwriting font, WCAG 2.2 SC 2.5.7); the typed text is kept too
	AgreementSignatureMethod = "signatureMethod"
	AgreementSignatureText   = "signatureText"
)

// Settings is a key/value table of operator settings (spec part 2 §3).
const (
	Settings     = "settings"
	SettingKey   = "key"
	SettingValue = "value"

	SettingTotalBatteries = "total_batteries"
	SettingCharger2_5A    = "charger_minutes_2_5A"
	SettingCharger4A      = "charger_minutes_4A"
	SettingCharger5A      = "charger_minutes_5A"
	SettingDropoffPrompt  = "dropoff_prompt"
	SettingPickupPrompt   = "pickup_prompt"
	SettingTimeZone       = "time_zone"
)

// Accounts are the ledger's places a battery can be (DESIGN.md §3). Balance is the cached
// sum of the account's entries; only the inventory module writes it.
const (
	Accounts              = "accounts"
	AccountKey            = "key"  // unique: ready, waiting, outside, untracked, unassigned, session:<id>, holder:<userId>:<type>
	AccountKind           = "kind" // see AccountKind* below
	AccountUser           = "user" // holder accounts only
	AccountAssignmentType = "assignmentType"
	AccountSession        = "session" // session accounts only
	AccountBalance        = "balance"

	AccountKindReady      = "ready"
	AccountKindWaiting    = "waiting"
	AccountKindSession    = "session"
	AccountKindUntracked  = "untracked"
	AccountKindHolder     = "holder"
	AccountKindUnassigned = "unassigned"
	AccountKindOutside    = "outside"
	// AccountKindQuarantine is the bay's quarantine shelf (DESIGN.md §14, issue 42): the
	// batteries of out-of-use packs, counted apart from ready and waiting.
	AccountKindQuarantine = "quarantine"
)

// Movements are the audit trail: one row per recorded operation, made of balanced entries.
const (
	Movements           = "movements"
	MovementType        = "type"
	MovementQuantity    = "quantity" // signed, as the spec's Movement.quantity
	MovementNotes       = "notes"
	MovementUser        = "user"  // whose activity this is (the driver for driver ops)
	MovementActor       = "actor" // who recorded it (differs for admin actions on a driver)
	MovementGood        = "goodBatteries"
	MovementDead        = "deadBatteries"
	MovementDiscrepancy = "discrepancy" // a dropoff returned more than the user held
	MovementSession     = "session"
	MovementMeta        = "meta" // json: operation details needed to edit or display it
	MovementCheckpoint  = "checkpoint"
	MovementOccurredAt  = "occurredAt" // when it happened (a driver's tap); indexed for week/day cuts
	MovementRecordedAt  = "recordedAt" // when the server committed it (DESIGN.md §12)
	MaxNotesLength      = 2000
)

// Entries are the ledger lines: per movement, the deltas sum to zero.
const (
	Entries       = "entries"
	EntryMovement = "movement"
	EntryAccount  = "account"
	EntryDelta    = "delta"
)

// ChargingSessions are batteries on chargers; each active one owns a session account.
const (
	ChargingSessions    = "charging_sessions"
	SessionQuantity     = "quantity"
	SessionChargerType  = "chargerType"
	SessionStartedAt    = "startedAt"
	SessionEtaAt        = "etaAt"
	SessionStatus       = "status" // active | completed | deleted
	SessionEndedAt      = "endedAt"
	SessionDueAnnounced = "dueAnnounced"
	SessionStartedBy    = "startedBy"
	SessionEnergyWh     = "energyWh" // the energy the charger reported at completion, Wh (0 = not reported; DESIGN.md §16)

	SessionStatusActive    = "active"
	SessionStatusCompleted = "completed"
	SessionStatusDeleted   = "deleted"
)

// IdempotencyKeys caches the first answer to a mutation for 8 days (DESIGN.md §5).
const (
	IdempotencyKeys = "idempotency_keys"
	IdemKey         = "key"
	IdemUser        = "user"
	IdemMethod      = "method"
	IdemPath        = "path"
	IdemStatus      = "status"
	IdemBody        = "body"
	// IdemBodyHash is the SHA-256 (hex) of the request body the answer is for: a repeat with
	// another body is refused (migrations 1766600100 and HQ's 1800004700; "" before them)
	IdemBodyHash = "bodyHash"
)

// Common autodate fields added to every base collection.
const (
	Created = "created"
	Updated = "updated"
)

// AuthSessions holds one row per signed-in device (DESIGN.md §5 "Sessions are revocable"): the
// session token carries the row's id in its SessionClaim, and a token whose row is gone is
// refused on every request and on /ws. Logout deletes one row; suspending, rejecting,
// deleting a user, changing their role or password deletes all of theirs.
const (
	AuthSessions         = "auth_sessions"
	AuthSessionUser      = "user"
	AuthSessionIP        = "ip"
	AuthSessionUserAgent = "userAgent"
	SessionClaim         = "sid"
)

// Photos holds drivers' photos of broken scooters (DESIGN.md §9). A record is created
// unclaimed by the signed upload PUT and becomes a photo when its uploader claims it.
const (
	Photos          = "photos"
	PhotoFile       = "file" // protected image file, thumbnails PhotoThumb
	PhotoFilename   = "filename"
	PhotoNotes      = "notes"
	PhotoUploadedBy = "uploadedBy" // "" once the uploader's account is deleted (the photo stays)
	// the uploader as their account read when it was deleted (photos.KeepFormerUploader)
	PhotoUploaderFirstName = "uploaderFirstName"
	PhotoUploaderLastName  = "uploaderLastName"
	PhotoUploaderEmail     = "uploaderEmail"
	PhotoUploadedAt        = "uploadedAt" // set when claimed
	PhotoTakenAt           = "takenAt"    // the driver's tap (the claim's occurredAt; else the claim time)
	PhotoSHA256            = "sha256"     // hex of the stored (metadata-free) bytes
	PhotoDuplicateOf       = "duplicateOf"
	PhotoClaimed           = "claimed"
	PhotoContentType       = "contentType"
	PhotoThumb             = "400x400"
)

// PayRates holds the pay rates (DESIGN.md §8), one row per change: a week is paid at the
// row in force at its end (the latest effectiveAt not after it). Money is integer cents.
const (
	PayRates           = "pay_rates"
	PayRateDeadBattery = "deadBatteryCents"
	PayRateMove        = "moveCents"
	PayRateRecover     = "recoverCents"
	PayRateEffectiveAt = "effectiveAt"
	PayRateCreatedBy   = "createdBy"
	TaskAdjustments    = "task_adjustments"
	AdjustmentUser     = "user"
	// AdjustmentEarner is whose count the adjustment replaces: the user's id, kept when the
	// account is deleted (the user link is cleared then; migration 1766600000).
	AdjustmentEarner       = "earner"
	AdjustmentWeekStart    = "weekStart" // YYYY-MM-DD, a Monday in the operation's time zone
	AdjustmentTaskType     = "taskType"  // batteries, moves or recovers
	AdjustmentOriginal     = "originalCount"
	AdjustmentAdjusted     = "adjustedCount"
	AdjustmentReason       = "adjustmentReason"
	AdjustmentCreatedBy    = "createdBy"
	AdjustmentTaskBattery  = "batteries"
	AdjustmentTaskMoves    = "moves"
	AdjustmentTaskRecovers = "recovers"
)

// Indexes that hot queries name with INDEXED BY, so their plan does not depend on the
// statistics SQLite holds (created by pb_migrations 1763700300_create_ledger.go).
const (
	IdxMovementsOccurredAt     = "idx_movements_occurredAt"
	IdxMovementsUserOccurredAt = "idx_movements_user_occurredAt"
	IdxMovementsTypeOccurredAt = "idx_movements_type_occurredAt"
	IdxEntriesAccount          = "idx_entries_account"
)

// ReplicationSettings holds the replica a master admin set on the System page (DESIGN.md §13;
// modules/replication): one row, superuser-only in the record API (the secret is never
// answered by any SwapBay route). A flag or environment value wins over it.
const (
	ReplicationSettings      = "replication_settings"
	ReplicationEnabled       = "enabled"
	ReplicationURL           = "url"
	ReplicationAccessKeyID   = "accessKeyId"
	ReplicationSecretKey     = "secretAccessKey"
	ReplicationUpdatedBy     = "updatedBy"
	ReplicationSettingsRowID = "replicationcfg1" // the one row's id (15 characters)
)

// Packs is the pack registry (DESIGN.md §14): every battery known by name. A pack's location is
// a ledger account (an accounts record; empty = unknown or outside the counted pool); the
// inventory's counts stay the truth for stock and pay, packs are the ledger's detail.
const (
	Packs                = "packs"
	PackSerial           = "serial" // unique: the operation's prefix + "-" + a zero-padded sequence, or an imported serial
	PackModel            = "model"
	PackChemistry        = "chemistry"
	PackNominalWh        = "nominalWh"
	PackManufacturer     = "manufacturer"
	PackLot              = "lot"
	PackManufactured     = "manufactured" // YYYY-MM
	PackInServiceSince   = "inServiceSince"
	PackState            = "state"       // see PackState* below
	PackStateBefore      = "stateBefore" // the state a lost pack returns to when it is found
	PackLocation         = "location"    // relation → accounts
	PackLastSeenAt       = "lastSeenAt"
	PackLastSeenBy       = "lastSeenBy"       // relation → users
	PackLastSeenMovement = "lastSeenMovement" // relation → movements
	PackChargeCount      = "chargeCount"

	PackStateInService   = "in_service"
	PackStateMaintenance = "maintenance"
	PackStateQuarantined = "quarantined"
	PackStateRetired     = "retired"
	PackStateRecycled    = "recycled"
	PackStateLost        = "lost"
	// PackStateInTransit: sent to another city (issue 45 item 6, modules/transfers): the pack is
	// in use nowhere here; only its transfer's receive or its undo changes it
	PackStateInTransit = "in_transit"

	MaxPackSerialLength = 40
	MaxPackTextLength   = 100 // model, chemistry, manufacturer, lot
)

// PackStates lists every pack state in the order the UI shows them.
var PackStates = []string{
	PackStateInService, PackStateMaintenance, PackStateQuarantined,
	PackStateRetired, PackStateRecycled, PackStateLost, PackStateInTransit,
}

// PackEvents is each pack's history, append-only: one row per thing that happened to a pack.
const (
	PackEvents               = "pack_events"
	PackEventPack            = "pack"
	PackEventKind            = "kind" // see PackEvent* below
	PackEventMovement        = "movement"
	PackEventSession         = "session"
	PackEventFromAccount     = "fromAccount"
	PackEventToAccount       = "toAccount"
	PackEventExpectedAccount = "expectedAccount" // discrepancies: where the records put the pack
	PackEventActor           = "actor"
	PackEventReason          = "reason"
	PackEventAt              = "at"
	PackEventFromState       = "fromState" // state changes
	PackEventToState         = "toState"
	PackEventPhotos          = "photos" // damage reports: relation → photos (at most MaxPackEventPhotos)
	PackEventRecall          = "recall" // a state change made by a recall: relation → pack_recalls

	PackEventCreated     = "created"
	PackEventImported    = "imported"
	PackEventMoved       = "moved"
	PackEventDiscrepancy = "discrepancy"
	PackEventState       = "state"
	PackEventFound       = "found"
	PackEventCharged     = "charged"
	PackEventDamage      = "damage" // a damage report (an incident): reason = the note, photos
	// a pack sent to another city (reason names it) and one received from another city (reason
	// names the sender and the history reference <address>/p/<serial>): modules/transfers
	PackEventTransferred = "transferred"
	PackEventReceived    = "received"

	MaxPackEventPhotos = 10
)

// PackEventKinds lists every pack event kind.
var PackEventKinds = []string{
	PackEventCreated, PackEventImported, PackEventMoved, PackEventDiscrepancy,
	PackEventState, PackEventFound, PackEventCharged, PackEventDamage,
	PackEventTransferred, PackEventReceived,
}

// PackTransfers holds one row per transfer of packs between cities (issue 45 item 6,
// modules/transfers; append-only): an `out` row per send (ref = its own id), an `in` row per
// receive (ref = the sender's transfer id; serials = the packs this receive took). Head office
// reads them from the cities' replicas (GET /api/hq/transit).
const (
	PackTransfers             = "pack_transfers"
	PackTransferDirection     = "direction" // out | in
	PackTransferRef           = "ref"
	PackTransferOtherCity     = "otherCity"
	PackTransferOtherAddress  = "otherAddress" // https URL or ""
	PackTransferSerials       = "serials"      // json array of serials
	PackTransferMovement      = "movement"     // relation → movements (transfer_out / transfer_in)
	PackTransferActor         = "actor"        // relation → users
	PackTransferAt            = "at"
	PackTransferManifest      = "manifest" // the manifest text (out: the one sent; in: the one received)
	PackTransferDirectionOut  = "out"
	PackTransferDirectionIn   = "in"
	MaxPackTransferPacks      = 200
	MaxPackTransferCityLength = 100
)

// PackRecalls holds one row per recall (DESIGN.md §14): an admin's choice of a lot, model or
// manufacturer, every matching pack quarantined at once. The packs it quarantined are the
// pack_events whose recall is the row.
const (
	PackRecalls         = "pack_recalls"
	PackRecallBy        = "by"    // lot | model | manufacturer
	PackRecallValue     = "value" // the lot, model or manufacturer chosen
	PackRecallReason    = "reason"
	PackRecallActor     = "actor" // relation → users
	PackRecallAt        = "at"
	PackRecallPackCount = "packCount" // how many packs it quarantined

	PackRecallByLot          = "lot"
	PackRecallByModel        = "model"
	PackRecallByManufacturer = "manufacturer"
)

// PackRecallBys lists what a recall may choose by.
var PackRecallBys = []string{PackRecallByLot, PackRecallByModel, PackRecallByManufacturer}

// The pack settings (DESIGN.md §14): the tracking mode, the serial prefix, and the sequence
// counter minting advances (stored so a serial is never handed out twice, not admin-editable).
const (
	SettingPackTracking = "pack_tracking" // off | optional | required
	SettingPackPrefix   = "pack_prefix"
	SettingPackSequence = "pack_sequence"

	PackTrackingOff      = "off"
	PackTrackingOptional = "optional"
	PackTrackingRequired = "required"
)

// SettingPackMissingDays is how many days without a scan make a pack missing (DESIGN.md §14).
const SettingPackMissingDays = "pack_missing_days"

// Pack health (DESIGN.md §16, issue 46). Each pack's health is derived from data and kept on
// the pack (the packs list filters "worn" by an index, the journal refuses a worn pack at
// hand-out by reading one column); the module that derives it is the only writer of these.
const (
	PackSoh                = "soh"                // state of health, % (0 = unknown)
	PackSohSource          = "sohSource"          // reading | estimate ("" = unknown)
	PackSohAt              = "sohAt"              // the time of the reading or charge the figure comes from
	PackSohDrop30          = "sohDrop30"          // points of state of health lost in the last 30 days (0 = none or unknown)
	PackEnergyThroughputWh = "energyThroughputWh" // energy charged into the pack over its life, Wh
	PackWorn               = "worn"               // under its model's threshold, or losing PackWornDropPoints in 30 days
	PackWornReason         = "wornReason"         // why, in words ("" when not worn)

	PackSohSourceReading  = "reading"
	PackSohSourceEstimate = "estimate"

	PackWornDropPoints = 3 // points of state of health lost in 30 days that make a pack worn
)

// PackSohSources lists where a pack's state of health may come from.
var PackSohSources = []string{PackSohSourceReading, PackSohSourceEstimate}

// PackModels holds the health figures of each pack model (DESIGN.md §16): a model is a pack's
// `model` value. Plain data, edited on the models list.
const (
	PackModels           = "pack_models"
	PackModelName        = "model"     // unique: a pack's model value
	PackModelNominalWh   = "nominalWh" // nominal energy, Wh (0 = unknown)
	PackModelRatedAh     = "ratedAh"   // rated capacity, Ah (0 = unknown)
	PackModelThreshold   = "threshold" // capacityThresholdForExhaustion, % of rated capacity
	DefaultPackThreshold = 80
)

// PackReadings holds each imported reading of a pack (DESIGN.md §16): from its battery
// management system or a charger. Append-only: a reading is a fact as it was imported.
// Figures are optional and 0 is a real value for some (a charge from 0%), so they are kept in
// one JSON object holding only the figures the reading had (PackReadingFigure* keys).
const (
	PackReadings       = "pack_readings"
	PackReadingPack    = "pack" // relation → packs
	PackReadingAt      = "at"
	PackReadingSource  = "source"  // charger | bms
	PackReadingFigures = "figures" // JSON: {energyWh, socFrom, socTo, fullAh, designAh, fullWh, designWh, cycles, soh, maxTempC}
	PackReadingFaults  = "faults"  // fault flags as the source wrote them ("" = none)
	PackReadingImport  = "import"  // the Idempotency-Key of the import that wrote it
	PackReadingActor   = "actor"   // relation → users

	PackReadingSourceCharger = "charger"
	PackReadingSourceBMS     = "bms"

	PackReadingFigureEnergyWh = "energyWh"
	PackReadingFigureSocFrom  = "socFrom"
	PackReadingFigureSocTo    = "socTo"
	PackReadingFigureFullAh   = "fullAh"
	PackReadingFigureDesignAh = "designAh"
	PackReadingFigureFullWh   = "fullWh"
	PackReadingFigureDesignWh = "designWh"
	PackReadingFigureCycles   = "cycles"
	PackReadingFigureSoh      = "soh"
	PackReadingFigureMaxTempC = "maxTempC"

	MaxPackReadingFaultsLength = 200
)

// PackReadingSources lists where a reading may come from.
var PackReadingSources = []string{PackReadingSourceCharger, PackReadingSourceBMS}

// SettingPackWornMode chooses what a worn pack meets at hand-out (DESIGN.md §16): flag (the
// default: flagged in the attention strip and the packs list) or refuse (pack_worn).
const (
	SettingPackWornMode = "pack_worn_mode"
	PackWornFlag        = "flag"
	PackWornRefuse      = "refuse"
)

// AuditLog is the System page's audit list (issue 43): one row per raw write a superuser (or
// anyone) made through PocketBase's record API or its /_/ dashboard and the guards allowed
// (hooks/). Rows are written by the hook in the write's own transaction and never changed
// (lib/audit; head office's hq_audit_log has the same fields).
const (
	AuditLog        = "audit_log"
	AuditActor      = "actor"      // the writer's email (a superuser's, from _superusers)
	AuditActorId    = "actorId"    // the writer's record id
	AuditActorKind  = "actorKind"  // the writer's collection: _superusers, users
	AuditAction     = "action"     // create | update | delete
	AuditCollection = "collection" // the collection written
	AuditRecord     = "record"     // the record's id
	AuditFields     = "fields"     // json: the names of the fields the write set or changed

	AuditActionCreate = "create"
	AuditActionUpdate = "update"
	AuditActionDelete = "delete"
	AuditActionRead   = "read" // head office read through its token (headoffice; at most one row per token and route a while)

	// AuditActorHeadOffice is the actorKind of what head office did with a city's token.
	AuditActorHeadOffice = "head_office"

	// AuditListLimit is how many of the newest rows an audit list shows (the city's System
	// page, head office's Cities page: lib/audit.List).
	AuditListLimit = 200
)

// HeadOfficeTokens are the tokens a city's master admin issues for head office (DESIGN.md §15,
// issue 45): scoped to reading packs and recalls and starting a recall, revocable, shown once.
// Only a token's SHA-256 is kept.
const (
	HeadOfficeTokens          = "head_office_tokens"
	HeadOfficeTokenName       = "name"       // what the master admin called it ("Head office, Berlin")
	HeadOfficeTokenHash       = "hash"       // hex SHA-256 of the token (unique)
	HeadOfficeTokenHint       = "hint"       // the token's last 4 characters, to tell tokens apart
	HeadOfficeTokenIssuedBy   = "issuedBy"   // relation → users: the master admin whose rights it narrows
	HeadOfficeTokenRevokedAt  = "revokedAt"  // empty while it works
	HeadOfficeTokenRevokedBy  = "revokedBy"  // relation → users
	HeadOfficeTokenLastUsedAt = "lastUsedAt" // updated at most once a minute

	MaxHeadOfficeTokenName = 100
)
