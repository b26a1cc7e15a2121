package replication

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/pocketbase/pocketbase/core"
)

// ErrNoReplica is a replica URL with nothing replicated at it.
var ErrNoReplica = errors.New("nothing has been replicated there (no snapshot found): check the URL and the credentials")

// IsURL reports whether from names a replica (s3://…, file://…) rather than a backup archive.
func IsURL(from string) bool {
	return strings.HasPrefix(from, "s3://") || strings.HasPrefix(from, "file://")
}

// RestoreDB writes the database at the replica cfg's latest position to dbPath (which must not
// exist) and answers its last transaction. It is the replica source of `swapbay restore`
// (modules/restore runs the checks and puts the dir in place). Photos and agreement PDFs stored
// on S3 (PocketBase's file storage setting, itself in data.db) stay there and are served from
// there.
func RestoreDB(ctx context.Context, cfg Config, dbPath string) (uint64, error) {
	client, err := cfg.Client()
	if err != nil {
		return 0, err
	}
	if err := client.Init(ctx); err != nil {
		return 0, fmt.Errorf("open the replica %s: %w", cfg.Target(), caHint(err))
	}
	replica := litestream.NewReplicaWithClient(nil, client)
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = dbPath
	if err := replica.Restore(ctx, opt); err != nil {
		if errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) {
			return 0, fmt.Errorf("restore from %s: %w", cfg.Target(), ErrNoReplica)
		}
		return 0, fmt.Errorf("restore from %s: %w", cfg.Target(), err)
	}
	// the plan Restore followed (the replica only grows meanwhile: nothing writes to it now)
	var txid uint64
	if infos, err := litestream.CalcRestorePlan(ctx, client, 0, time.Time{}, slog.New(slog.DiscardHandler)); err == nil && len(infos) > 0 {
		txid = uint64(infos[len(infos)-1].MaxTXID)
	}
	return txid, nil
}

// TurnOffRestored turns off the System page's replication in restored data (a replica's or a
// backup archive's) and answers the target it pointed at ("" when it was off): a restored copy
// never writes into the replica its data came from until a master admin turns it on again.
// Data older than the settings table has nothing to turn off.
func TurnOffRestored(app core.App) (string, error) {
	s, err := LoadStored(app)
	if err != nil || !s.Enabled {
		return "", nil
	}
	s.Enabled = false
	if err := saveStored(app, s, "restore"); err != nil {
		return "", fmt.Errorf("turn off the restored data's replication settings: %w", err)
	}
	return s.Target(), nil
}
