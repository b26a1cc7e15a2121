package ledgertest

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

// Do sends a JSON request with token and extra headers and returns status and body.
func Do(t testing.TB, client *http.Client, method, url, token, body string, headers map[string]string) (int, []byte, http.Header) {
	req, err := http.NewRequest(method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Error(err)
		return 0, nil, nil
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Error(err)
		return 0, nil, nil
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw, res.Header
}
