package restore

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the dirs a and b in one step (renameat2 RENAME_EXCHANGE): each path names a
// whole dir at every moment. errNoExchange when the file system cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}
