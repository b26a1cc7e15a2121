//go:build !linux

package restore

// exchange is not available here: swapIn falls back to two renames.
func exchange(a, b string) error { return errNoExchange }
