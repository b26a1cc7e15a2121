package replication

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"syscall"
)

// Explain names a replica's failure in plain words: the HTTP status (and S3's error code), a
// host name that does not resolve, a TLS certificate that is refused, credentials that are
// refused, a host that does not answer, a directory that cannot be written. It never carries
// the S3 client's text or the remote host's answer (which may echo anything); what it cannot
// name is "an unexpected error" (the server log has Litestream's own record).
func Explain(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the replica did not answer in time"
	}
	if hint := caHintText(err); hint != "" {
		return hint
	}
	var status interface{ HTTPStatusCode() int }
	if errors.As(err, &status) && status.HTTPStatusCode() > 0 {
		return httpFailure(status.HTTPStatusCode(), apiCode(err))
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		if dns.IsNotFound {
			return fmt.Sprintf("the host name %s does not resolve (DNS)", plainHost(dns.Name))
		}
		return fmt.Sprintf("the host name %s could not be looked up (DNS)", plainHost(dns.Name))
	}
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownCA):
		return "TLS: the replica's certificate is signed by an unknown authority (give a private CA with SSL_CERT_FILE)"
	case errors.As(err, &hostname):
		return "TLS: the replica's certificate is not valid for its host name"
	case errors.As(err, &invalid):
		return "TLS: the replica's certificate is not valid (expired or not yet valid)"
	case errors.As(err, &verify):
		return "TLS: the replica's certificate was refused"
	case errors.As(err, &record):
		return "TLS: the replica does not speak TLS on that port (try http:// in the endpoint)"
	}
	if code := apiCode(err); code != "" {
		if c, ok := credentialCodes[code]; ok {
			return c
		}
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the replica's host refused the connection (unreachable: nothing listens there)"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the replica's host is unreachable (no route to it)"
	case errors.Is(err, syscall.ECONNRESET):
		return "the replica's host closed the connection"
	case errors.Is(err, fs.ErrPermission):
		return "the replica directory cannot be written (permission denied)"
	case errors.Is(err, syscall.ENOSPC):
		return "the replica's disk is full"
	case errors.Is(err, syscall.EROFS):
		return "the replica directory is on a read-only file system"
	case errors.Is(err, fs.ErrNotExist):
		return "the replica directory does not exist"
	}
	var timeout interface{ Timeout() bool }
	if errors.As(err, &timeout) && timeout.Timeout() {
		return "the replica did not answer in time"
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return "the replica's host is unreachable"
	}
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return "the replica directory cannot be used (" + pathErr.Op + ": " + errText(pathErr.Err) + ")"
	}
	return "an unexpected error (see the server log)"
}

// credentialCodes are S3's error codes that mean the keys are wrong or lack the right.
var credentialCodes = map[string]string{
	"InvalidAccessKeyId":    "the access key ID was refused (credentials)",
	"SignatureDoesNotMatch": "the secret access key was refused (credentials)",
	"AccessDenied":          "access denied: the keys may not use this bucket (credentials)",
	"ExpiredToken":          "the credentials have expired",
	"InvalidToken":          "the credentials were refused",
	"NoSuchBucket":          "the bucket does not exist",
}

// httpFailure names an HTTP status (and S3's code, when it is one of the known ones).
func httpFailure(status int, code string) string {
	if c, ok := credentialCodes[code]; ok {
		return fmt.Sprintf("%s (HTTP %d %s)", c, status, code)
	}
	what := ""
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		what = "the credentials were refused"
	case status == http.StatusNotFound:
		what = "the bucket or path was not found"
	case status == http.StatusMovedPermanently || status == http.StatusTemporaryRedirect || status == http.StatusPermanentRedirect:
		what = "the bucket is in another region (check region=)"
	case status >= 500:
		what = "the replica's server failed"
	default:
		what = "the replica refused the request"
	}
	if code != "" {
		return fmt.Sprintf("%s (HTTP %d %s)", what, status, code)
	}
	return fmt.Sprintf("%s (HTTP %d %s)", what, status, http.StatusText(status))
}

// codeForm is what an S3 error code looks like; anything else is not shown.
var codeForm = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9.]{1,40}$`)

// apiCode is S3's error code of err ("" when none, or when it does not look like one).
func apiCode(err error) string {
	var api interface{ ErrorCode() string }
	if errors.As(err, &api) && codeForm.MatchString(api.ErrorCode()) {
		return api.ErrorCode()
	}
	return ""
}

// hostForm is what a host name (or address) looks like.
var hostForm = regexp.MustCompile(`^[A-Za-z0-9.\-:\[\]]{1,253}$`)

// plainHost is a host name as a message shows it (nothing but host name characters).
func plainHost(h string) string {
	if hostForm.MatchString(h) {
		return h
	}
	return "of the replica"
}

// errText is a local system error's text (errno strings, never remote text).
func errText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return "failed"
}

// caHintText is the plain words for the AWS SDK's refusal of AWS_CA_BUNDLE (see caHint).
func caHintText(err error) string {
	if strings.Contains(err.Error(), "custom RootCAs") && os.Getenv("AWS_CA_BUNDLE") != "" {
		return "AWS_CA_BUNDLE is set, which Litestream's S3 client cannot take: unset it for swapbay and give a private CA with SSL_CERT_FILE"
	}
	return ""
}
