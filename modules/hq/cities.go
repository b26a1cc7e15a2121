package hq

import (
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
	"swapbay/modules/hq/follow"
	"swapbay/modules/replication"
)

// Messages of the cities routes.
const (
	MsgNameRequired = "City name is required"
	MsgNameTooLong  = "City name must be at most 100 characters"
	MsgNameTaken    = "A city with this name already exists"
	// MsgReplicaTaken refuses a replica another city already follows (%s: that city's name): its
	// figures would be counted twice, its packs listed twice, its recalls sent twice.
	MsgReplicaTaken    = "This replica is already followed as %s: one city, one replica (edit that city instead)"
	MsgTimeZone        = "Time zone must be an IANA name such as Europe/Paris"
	MsgCurrency        = "Currency must be a three-letter ISO 4217 code such as EUR"
	MsgReplicaRequired = "The city's replica URL is required"
	MsgAddress         = "The city's address must be its https:// (or http://) web address, without a user name or password"
	MsgTokenTooLong    = "The head-office token must be at most 500 characters"
	MsgKeyTooLong      = "Keys must be at most 500 characters"
	MsgCityNotFound    = "City not found"
	MsgTokenRequired   = "The head-office token the city issued is required"
	MsgTokenCharacters = "The head-office token must be printable characters without spaces"
)

// Limits of a city's fields.
const (
	maxName     = 100
	maxURL      = 2000
	maxKey      = 500
	maxToken    = 500
	maxTimeZone = 64
)

// CityInput is what POST and PUT /api/hq/cities send. On PUT a blank key, secret or token keeps
// the stored one (they are never shown back); a file:// replica drops the keys.
type CityInput struct {
	Name            string `json:"name"`
	TimeZone        string `json:"timeZone"`
	Currency        string `json:"currency"`
	ReplicaURL      string `json:"replicaUrl"`
	AccessKeyID     string `json:"accessKeyId"`
	SecretAccessKey string `json:"secretAccessKey"`
	Address         string `json:"address"`
	Token           string `json:"token"`
}

// City is a city as the routes answer it: the replica URL without credentials, of the keys
// and the token only whether they are set, and its copy's state and lag.
type City struct {
	ID                 string        `json:"id"`
	Name               string        `json:"name"`
	TimeZone           string        `json:"timeZone"`
	Currency           string        `json:"currency"`
	ReplicaURL         string        `json:"replicaUrl"`
	AccessKeyIDSet     bool          `json:"accessKeyIdSet"`
	SecretAccessKeySet bool          `json:"secretAccessKeySet"`
	Address            string        `json:"address"`
	TokenSet           bool          `json:"tokenSet"`
	Copy               follow.Status `json:"copy"`
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// clean checks in (prev: the stored city on PUT, nil on POST) and answers the record's values.
func clean(in CityInput, prev *core.Record) (CityInput, error) {
	var out CityInput
	var err error
	if out.Name, err = reqx.Name("name", in.Name, MsgNameRequired, MsgNameTooLong); err != nil {
		return out, err
	}
	if utf8.RuneCountInString(out.Name) > maxName {
		return out, apierr.Invalid("name", MsgNameTooLong)
	}
	out.TimeZone = strings.TrimSpace(in.TimeZone)
	if out.TimeZone == "" || len(out.TimeZone) > maxTimeZone || strings.EqualFold(out.TimeZone, "local") {
		return out, apierr.Invalid("timeZone", MsgTimeZone)
	}
	if _, err := time.LoadLocation(out.TimeZone); err != nil {
		return out, apierr.Invalid("timeZone", MsgTimeZone)
	}
	out.Currency = strings.ToUpper(strings.TrimSpace(in.Currency))
	if !currencyRE.MatchString(out.Currency) {
		return out, apierr.Invalid("currency", MsgCurrency)
	}
	out.ReplicaURL = strings.TrimSpace(in.ReplicaURL)
	if out.ReplicaURL == "" {
		return out, apierr.Invalid("replicaUrl", MsgReplicaRequired)
	}
	if len(out.ReplicaURL) > maxURL {
		return out, apierr.Invalid("replicaUrl", replication.MsgURLForm)
	}
	if err := replication.CheckURL(out.ReplicaURL); err != nil {
		var v *apierr.Error
		if errors.As(err, &v) {
			return out, apierr.Invalid("replicaUrl", v.Message)
		}
		return out, apierr.Invalid("replicaUrl", replication.MsgURLForm)
	}
	out.AccessKeyID, out.SecretAccessKey = strings.TrimSpace(in.AccessKeyID), strings.TrimSpace(in.SecretAccessKey)
	if len(out.AccessKeyID) > maxKey {
		return out, apierr.Invalid("accessKeyId", MsgKeyTooLong)
	}
	if len(out.SecretAccessKey) > maxKey {
		return out, apierr.Invalid("secretAccessKey", MsgKeyTooLong)
	}
	out.Address = strings.TrimRight(strings.TrimSpace(in.Address), "/")
	if len(out.Address) > maxURL {
		return out, apierr.Invalid("address", MsgAddress)
	}
	if u, err := url.Parse(out.Address); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(out.Address, " \t\r\n") {
		return out, apierr.Invalid("address", MsgAddress)
	}
	out.Token = strings.TrimSpace(in.Token)
	if len(out.Token) > maxToken {
		return out, apierr.Invalid("token", MsgTokenTooLong)
	}
	if strings.IndexFunc(out.Token, func(r rune) bool { return r <= ' ' || r == 0x7f || r > '~' }) >= 0 {
		return out, apierr.Invalid("token", MsgTokenCharacters)
	}

	if prev == nil {
		if out.Token == "" {
			return out, apierr.Invalid("token", MsgTokenRequired)
		}
	} else {
		if out.Token == "" {
			out.Token = prev.GetString(CityToken)
		}
		prevURL := prev.GetString(CityReplicaURL)
		prevKey, prevSecret := prev.GetString(CityAccessKeyID), prev.GetString(CitySecretKey)
		if replication.SameEndpoint(prevURL, out.ReplicaURL) {
			if out.AccessKeyID == "" {
				out.AccessKeyID = prevKey
			}
			if out.SecretAccessKey == "" {
				out.SecretAccessKey = prevSecret
			}
		} else if strings.HasPrefix(out.ReplicaURL, "s3:") && prevKey+prevSecret != "" && (out.AccessKeyID == "" || out.SecretAccessKey == "") {
			field := "accessKeyId"
			if out.AccessKeyID != "" {
				field = "secretAccessKey"
			}
			return out, apierr.Invalid(field, replication.MsgNewKeysRequired)
		}
	}
	if strings.HasPrefix(out.ReplicaURL, "file:") {
		out.AccessKeyID, out.SecretAccessKey = "", ""
	}
	return out, nil
}

// SaveCity creates (id "") or replaces the city id from in, by the HQ user by. A name another
// city has is a 409; an unknown id a 404. A city created runs OnCityAdded in app (the keyed
// route's transaction).
func SaveCity(app core.App, id string, in CityInput, by string) (*core.Record, error) {
	var rec *core.Record
	added := id == ""
	if id != "" {
		var err error
		rec, err = findCity(app, id)
		if err != nil {
			return nil, err
		}
	}
	out, err := clean(in, rec)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		col, err := app.FindCollectionByNameOrId(Cities)
		if err != nil {
			return nil, err
		}
		rec = core.NewRecord(col)
	}
	var other string
	err = app.DB().Select("id").From(Cities).
		Where(dbx.NewExp("lower(name) = lower({:name}) AND id != {:id}", dbx.Params{"name": out.Name, "id": rec.Id})).Limit(1).Row(&other)
	if err == nil {
		return nil, apierr.Conflict(MsgNameTaken)
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if err := replicaFree(app, rec.Id, out.ReplicaURL); err != nil {
		return nil, err
	}
	rec.Set(CityName, out.Name)
	rec.Set(CityTimeZone, out.TimeZone)
	rec.Set(CityCurrency, out.Currency)
	rec.Set(CityReplicaURL, out.ReplicaURL)
	rec.Set(CityAccessKeyID, out.AccessKeyID)
	rec.Set(CitySecretKey, out.SecretAccessKey)
	rec.Set(CityAddress, out.Address)
	rec.Set(CityToken, out.Token)
	rec.Set(CityUpdatedBy, by)
	if err := app.Save(rec); err != nil {
		return nil, err
	}
	if added {
		if err := OnCityAdded(app).Trigger(&CityAddedEvent{App: app, City: rec}); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// replicaFree refuses (409, naming replicaUrl) a replica URL that another city than id already
// follows, however it is written (a trailing slash, a path with ..).
func replicaFree(app core.App, id, replicaURL string) error {
	var others []struct {
		Name string `db:"name"`
		URL  string `db:"url"`
	}
	err := app.DB().NewQuery("SELECT [[" + CityName + "]] AS name, [[" + CityReplicaURL + "]] AS url FROM " + Cities + " WHERE id != {:id}").
		Bind(dbx.Params{"id": id}).All(&others)
	if err != nil {
		return err
	}
	for _, o := range others {
		if sameReplica(o.URL, replicaURL) {
			return apierr.NewCode(http.StatusConflict, "replicaUrl", fmt.Sprintf(MsgReplicaTaken, o.Name), apierr.CodeConflict)
		}
	}
	return nil
}

// sameReplica reports whether the replica URLs a and b name one replica: a file:// directory
// with the same cleaned path, or an S3 path in the same bucket at the same endpoint.
func sameReplica(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil || ua.Scheme != ub.Scheme {
		return false
	}
	if ua.Scheme == "file" {
		return filepath.Clean(ua.Path) == filepath.Clean(ub.Path)
	}
	return replication.SameEndpoint(a, b) && strings.Trim(path.Clean("/"+ua.Path), "/") == strings.Trim(path.Clean("/"+ub.Path), "/")
}

// DeleteCity deletes the city id (its copy is deleted once the deletion commits).
func DeleteCity(app core.App, id string) error {
	rec, err := findCity(app, id)
	if err != nil {
		return err
	}
	return app.Delete(rec)
}

// findCity is the city id (404 when none).
func findCity(app core.App, id string) (*core.Record, error) {
	return FindRecord(app, Cities, id, MsgCityNotFound)
}

// FindRecord is the record id of collection, or a 404 saying notFound when there is none (an
// id of more than 50 characters is none, unread).
func FindRecord(app core.App, collection, id, notFound string) (*core.Record, error) {
	if id == "" || len(id) > 50 {
		return nil, apierr.NotFound(notFound)
	}
	rec, err := app.FindRecordById(collection, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apierr.NotFound(notFound)
	}
	return rec, err
}

// ReplicaConfig is the city rec's replica with its keys.
func ReplicaConfig(rec *core.Record) replication.Config {
	return replication.Config{URL: rec.GetString(CityReplicaURL), AccessKeyID: rec.GetString(CityAccessKeyID),
		SecretAccessKey: rec.GetString(CitySecretKey), Source: "hq"}
}

// view is rec as the routes answer it, with its copy's status from set.
func view(rec *core.Record, set *follow.Set) City {
	cfg := ReplicaConfig(rec)
	c := City{ID: rec.Id, Name: rec.GetString(CityName), TimeZone: rec.GetString(CityTimeZone), Currency: rec.GetString(CityCurrency),
		ReplicaURL: cfg.Target(), AccessKeyIDSet: cfg.AccessKeyID != "", SecretAccessKeySet: cfg.SecretAccessKey != "",
		Address: rec.GetString(CityAddress), TokenSet: rec.GetString(CityToken) != ""}
	if st, ok := set.Status(rec.Id); ok {
		c.Copy = st
	} else {
		// saved in this request: its follower starts once the save commits
		c.Copy = follow.Status{State: follow.StateRestoring}
	}
	return c
}

// ListCities is every city, by name.
func ListCities(app core.App) ([]*core.Record, error) {
	return app.FindRecordsByFilter(Cities, "", "name", 0, 0)
}
