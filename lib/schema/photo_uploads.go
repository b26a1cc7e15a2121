package schema

// PhotoUploadsUsed is a plain table (not a collection) of the signed upload URLs already used,
// each kept until it expires: a URL works once even after its photo is deleted (photos.Receive).
const (
	PhotoUploadsUsed   = "swapbay_photo_uploads_used"
	PhotoUploadUsedExp = "exp" // the URL's expiry, Unix seconds: the row may go after it
)
