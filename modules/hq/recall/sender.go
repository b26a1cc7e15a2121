package recall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/modules/hq"
	"swapbay/modules/packs"
)

// CityRecallPath is the city's recall route (modules/packs), opened to head office's token.
const CityRecallPath = "/api/admin/packs/recall"

// Words a send's row keeps of its last failure.
const (
	MsgTokenRefused = "The city refused head office's token: issue a new one on its System page."
	MsgUnreachable  = "Could not reach the city: %s. Trying again."
	MsgCityTrouble  = "The city answered %d: %s. Trying again."
	MsgCityRefused  = "The city refused the recall (%d): %s"
	MsgCityRemoved  = "The city was removed from head office."
	MsgBadAnswer    = "The city's answer could not be read: %s. Trying again."
	MsgNotTheRoute  = "The city's address did not answer as a SwapBay city (404: %s): check the address on the Cities page."
)

// The city's recall answers 404 "No pack has lot X" when no pack matches there and 409 "Every
// pack with lot X is already quarantined…" when none is left: both are the recall done there.
// Another 404 (no such route) or 409 is not.
var (
	noMatchPrefix = strings.SplitN(packs.MsgRecallNoMatch, "%", 2)[0]
	nothingPrefix = strings.SplitN(packs.MsgRecallNothing, "%", 2)[0]
)

// Key is the Idempotency-Key of recall id's send to city cityId: the same for every attempt, so
// the city answers a repeat from its stored answer and never recalls twice.
func Key(id, cityId string) string { return "hqr-" + id + "-" + cityId }

// Options are the sender's knobs; DefaultOptions are production's, tests shorten them.
type Options struct {
	RetryMin, RetryMax time.Duration // the back-off after a network error or a city's 5xx
	Timeout            time.Duration // one attempt, the city's answer included
	// Parallel bounds the attempts under way at once (0: DefaultParallel): a city added after
	// many recalls is sent each of them, a few at a time rather than all at once.
	Parallel int
	// Transport carries the requests (nil: http.DefaultTransport); tests put one that loses
	// answers.
	Transport http.RoundTripper
}

// DefaultParallel is how many attempts are under way at once when Options.Parallel is 0.
const DefaultParallel = 4

// DefaultOptions: 2 s doubling to 5 min, 30 s per attempt, DefaultParallel at once.
func DefaultOptions() Options {
	return Options{RetryMin: 2 * time.Second, RetryMax: 5 * time.Minute, Timeout: 30 * time.Second, Parallel: DefaultParallel}
}

// Sender sends the pending sends, one goroutine each, outside any transaction, until they are
// answered for good (sent or failed) or it is closed. Resume starts one for every pending row
// (at serve); Kick for the sends a committed route made pending.
type Sender struct {
	app    core.App
	opt    Options
	client *http.Client
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	slots  chan struct{} // one per attempt under way (Options.Parallel)

	mu      sync.Mutex
	running map[string]chan struct{} // send id → its wake-up (send now, not after the back-off)
}

// NewSender is a sender over app's sends, until ctx ends or Close.
func NewSender(ctx context.Context, app core.App, opt Options) *Sender {
	ctx, cancel := context.WithCancel(ctx)
	tr := opt.Transport
	if tr == nil {
		tr = http.DefaultTransport
	}
	parallel := opt.Parallel
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	return &Sender{app: app, opt: opt, ctx: ctx, cancel: cancel, running: map[string]chan struct{}{}, slots: make(chan struct{}, parallel),
		client: &http.Client{Timeout: opt.Timeout, Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect would carry the token elsewhere
		}}}
}

// Close stops every send (an attempt under way is cancelled; its row stays pending, resumed at
// the next start) and waits for them to return.
func (s *Sender) Close() {
	s.cancel()
	s.wg.Wait()
}

// Resume starts every pending send (head office's start: a recall stopped mid-way goes on).
func (s *Sender) Resume() error {
	var ids []string
	err := s.app.DB().Select("id").From(Sends).Where(dbx.HashExp{SendState: SendPending}).OrderBy("created", "id").Column(&ids)
	if err != nil {
		return err
	}
	s.Kick(ids...)
	return nil
}

// KickRecall starts recall id's pending sends.
func (s *Sender) KickRecall(id string) {
	var ids []string
	if err := s.app.DB().Select("id").From(Sends).Where(dbx.HashExp{SendRecall: id, SendState: SendPending}).Column(&ids); err != nil {
		s.app.Logger().Error("hq recall: pending sends", "recall", id, "error", err)
		return
	}
	s.Kick(ids...)
}

// Kick starts the sends ids (one already under way is woken: it tries now).
func (s *Sender) Kick(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return
	}
	for _, id := range ids {
		if wake, ok := s.running[id]; ok {
			select {
			case wake <- struct{}{}:
			default:
			}
			continue
		}
		wake := make(chan struct{}, 1)
		s.running[id] = wake
		s.wg.Add(1)
		go s.run(id, wake)
	}
}

// Running is how many sends are under way.
func (s *Sender) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.running)
}

// run sends id until it is answered for good or the sender closes, backing off between tries.
// A Kick that came while the send was being answered (a retry made it pending again) is seen
// before it leaves: the wake-up and the leaving are under the same lock as Kick.
func (s *Sender) run(id string, wake chan struct{}) {
	defer s.wg.Done()
	wait := s.opt.RetryMin
	for s.ctx.Err() == nil {
		final, err := s.attempt(id)
		if err != nil {
			s.app.Logger().Error("hq recall: send", "send", id, "error", err)
		}
		if final {
			s.mu.Lock()
			select {
			case <-wake:
				s.mu.Unlock()
				wait = s.opt.RetryMin
				continue
			default:
				delete(s.running, id)
				s.mu.Unlock()
				return
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
		case <-wake:
			t.Stop()
			wait = s.opt.RetryMin
		case <-t.C:
			wait = min(2*wait, s.opt.RetryMax)
		}
	}
	s.mu.Lock()
	delete(s.running, id)
	s.mu.Unlock()
}

// cityAnswer is what the city's recall route answers (a recall, or an error's message).
type cityAnswer struct {
	Recall struct {
		Id string `json:"id"`
	} `json:"recall"`
	Message string `json:"message"`
}

// attempt sends id once and records the outcome on its row; final when the send is answered for
// good (or no longer pending).
func (s *Sender) attempt(id string) (final bool, err error) {
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-s.ctx.Done():
		return true, nil // closing: the row stays as it is, resumed at the next start
	}
	row, err := s.app.FindRecordById(Sends, id)
	if err != nil {
		return true, err
	}
	if row.GetString(SendState) != SendPending {
		return true, nil
	}
	rec, err := s.app.FindRecordById(Recalls, row.GetString(SendRecall))
	if err != nil {
		return true, err
	}
	city, err := s.app.FindRecordById(hq.Cities, row.GetString(SendCity))
	if err != nil {
		return true, s.record(row, SendFailed, 0, MsgCityRemoved, "")
	}
	// standing: the city records the recall even with none of the packs there now, so that one
	// on its way from another city (passed over by that city's recall) arrives quarantined
	body, _ := json.Marshal(struct {
		Form
		Standing bool `json:"standing"`
	}{Form{By: rec.GetString(RecallBy), Value: rec.GetString(RecallValue), Reason: rec.GetString(RecallReason)}, true})
	ctx, cancel := context.WithTimeout(s.ctx, s.opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(city.GetString(hq.CityAddress), "/")+CityRecallPath, bytes.NewReader(body))
	if err != nil {
		return true, s.record(row, SendFailed, 0, fmt.Sprintf(MsgCityRefused, 0, err.Error()), "")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+city.GetString(hq.CityToken))
	req.Header.Set("Idempotency-Key", Key(rec.Id, city.Id))
	resp, err := s.client.Do(req)
	if err != nil {
		if s.ctx.Err() != nil {
			return true, nil // closing: the row stays pending, resumed at the next start
		}
		return false, s.record(row, SendPending, 0, fmt.Sprintf(MsgUnreachable, netWords(err)), "")
	}
	raw, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	_ = resp.Body.Close()
	var ans cityAnswer
	_ = json.Unmarshal(raw, &ans)
	msg := strings.TrimSpace(ans.Message)
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		if rerr != nil || ans.Recall.Id == "" {
			if s.ctx.Err() != nil {
				return true, nil
			}
			e := "no recall in it"
			if rerr != nil {
				e = netWords(rerr)
			}
			return false, s.record(row, SendPending, code, fmt.Sprintf(MsgBadAnswer, e), "")
		}
		return true, s.record(row, SendSent, code, "", ans.Recall.Id)
	case (code == http.StatusNotFound && strings.HasPrefix(msg, noMatchPrefix)) || (code == http.StatusConflict && strings.HasPrefix(msg, nothingPrefix)):
		// no pack there matches, or every one is already out of use: nothing to recall there
		return true, s.record(row, SendSent, code, "", "")
	case code == http.StatusNotFound:
		// not the recall's 404: another server at that address, or a city without the route
		return true, s.record(row, SendFailed, code, fmt.Sprintf(MsgNotTheRoute, msg), "")
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return true, s.record(row, SendFailed, code, MsgTokenRefused, "")
	case code >= 500 || code == http.StatusTooManyRequests || code == http.StatusRequestTimeout:
		return false, s.record(row, SendPending, code, fmt.Sprintf(MsgCityTrouble, code, msg), "")
	default:
		return true, s.record(row, SendFailed, code, fmt.Sprintf(MsgCityRefused, code, msg), "")
	}
}

// record saves an attempt's outcome on row.
func (s *Sender) record(row *core.Record, state string, status int, msg, cityRecallId string) error {
	row.Set(SendState, state)
	row.Set(SendAttempts, row.GetInt(SendAttempts)+1)
	row.Set(SendStatus, status)
	row.Set(SendError, truncate(msg, 1000))
	if state == SendSent {
		row.Set(SendCityRecallID, cityRecallId)
		row.Set(SendSentAt, clock.Now().UTC())
	}
	return s.app.Save(row)
}

// netWords is a network error in words, without the request's URL.
func netWords(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout"):
		return "no answer in time"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "no such host"):
		return "the address's host is unknown"
	}
	return err.Error()
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
