package follow

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"swapbay/modules/replication"
)

// Set supervises one Follower per city under one context: Put starts or restarts a city's,
// Remove stops it, Close stops them all and waits for each to return.
type Set struct {
	dir string
	opt Options
	log *slog.Logger
	ctx context.Context

	cancel context.CancelFunc
	mu     sync.Mutex
	m      map[string]*entry
	wg     sync.WaitGroup
}

type entry struct {
	f      *Follower
	cfg    replication.Config
	cancel context.CancelFunc
	done   chan struct{}
}

// NewSet keeps its copies under dir (one directory per city id) until parent ends or Close.
func NewSet(parent context.Context, dir string, opt Options, logger *slog.Logger) *Set {
	if logger == nil {
		logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(parent)
	return &Set{dir: dir, opt: opt, log: logger, ctx: ctx, cancel: cancel, m: map[string]*entry{}}
}

// Dir is the directory of city id's copy.
func (s *Set) Dir(id string) string { return filepath.Join(s.dir, id) }

// CopyPath is city id's copy.
func (s *Set) CopyPath(id string) string { return filepath.Join(s.Dir(id), CopyName) }

// Put follows cfg's replica for city id. The same replica again leaves the running follower
// alone; another one (URL or keys) stops it, and a changed URL deletes the copy first (another
// replica is another history).
func (s *Set) Put(id string, cfg replication.Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return
	}
	if e, ok := s.m[id]; ok {
		if e.cfg == cfg {
			return
		}
		s.stop(e)
		if e.cfg.URL != cfg.URL {
			removeCopy(s.CopyPath(id))
		}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	e := &entry{f: New(s.Dir(id), cfg, s.opt, s.log.With("city", id)), cfg: cfg, cancel: cancel, done: make(chan struct{})}
	s.m[id] = e
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(e.done)
		e.f.Run(ctx)
	}()
}

// stop cancels e's follower and waits for it (s.mu held).
func (s *Set) stop(e *entry) {
	e.cancel()
	<-e.done
}

// Remove stops city id's follower and deletes its copy.
func (s *Set) Remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.m[id]; ok {
		s.stop(e)
		delete(s.m, id)
	}
	_ = os.RemoveAll(s.Dir(id))
}

// Status is city id's copy now (ok false: not followed).
func (s *Set) Status(id string) (Status, bool) {
	s.mu.Lock()
	e, ok := s.m[id]
	s.mu.Unlock()
	if !ok {
		return Status{}, false
	}
	return e.f.Status(), true
}

// Close stops every follower and waits until each has returned (its copy closed).
func (s *Set) Close() {
	s.cancel()
	s.wg.Wait()
}
