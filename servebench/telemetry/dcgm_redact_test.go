package telemetry

import (
	"context"
	"net"
	"strings"
	"testing"
)

// TestDCGMErrorsNeverQuoteTheURLsCredentials: an exporter that cannot be
// reached fails with an error that names it without its userinfo or
// query token.
func TestDCGMErrorsNeverQuoteTheURLsCredentials(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, err = OpenDCGM(context.Background(), "http://scraper:PASSWORD-9@"+addr+"/metrics?token=QTOKEN-1234")
	if err == nil {
		t.Fatal("a closed port opened")
	}
	for _, secret := range []string{"PASSWORD-9", "QTOKEN-1234", "scraper"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q holds %q", err, secret)
		}
	}
	if !strings.Contains(err.Error(), "[redacted]@"+addr+"/metrics?[redacted]") {
		t.Errorf("error %q does not name the exporter", err)
	}
}
