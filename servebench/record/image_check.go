package record

import (
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // data: URLs may hold GIF
	_ "image/jpeg" // or JPEG
	_ "image/png"  // or PNG
	"net/url"
	"strings"
)

// The image formats an image part may carry, by MIME type.
var imageMIMEs = map[string]string{"image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif"}

// CheckURL checks the image's URL before any load and measures it: a data:
// URL must be data:image/jpeg|png|gif;base64, with a base64 payload whose
// header image.DecodeConfig reads (Bytes, Width and Height are filled and
// the declared type must match the data); an http(s) URL must parse and
// needs no escaping in JSON (its size stays unknown). A checked URL is
// copied into request bodies as it is, without JSON encoding.
func (u *ImageURL) CheckURL() error {
	switch {
	case u.SpoolPath != "":
		u.checked = true
		return nil
	case strings.HasPrefix(u.URL, "data:"):
		return u.checkDataURL()
	case strings.HasPrefix(u.URL, "http://") || strings.HasPrefix(u.URL, "https://"):
		p, err := url.Parse(u.URL)
		if err != nil || p.Host == "" {
			return fmt.Errorf("not a valid http(s) URL: %q", short(u.URL))
		}
		if !plainJSON(u.URL) {
			return fmt.Errorf("an http(s) URL with a character JSON must escape: %q", short(u.URL))
		}
		u.checked = true
		return nil
	}
	return fmt.Errorf("want a data:image/...;base64, URL or an http(s) URL, got %q", short(u.URL))
}

// Checked says whether CheckURL accepted the URL.
func (u *ImageURL) Checked() bool { return u.checked }

// checkDataURL checks and measures a data: URL.
func (u *ImageURL) checkDataURL() error {
	header, payload, ok := strings.Cut(u.URL[len("data:"):], ",")
	mime, enc, _ := strings.Cut(header, ";")
	if !ok || enc != "base64" {
		return errors.New("a data: URL must be data:MIME;base64,DATA")
	}
	format, known := imageMIMEs[mime]
	if !known {
		return fmt.Errorf("unknown image format %q: want image/jpeg, image/png or image/gif", mime)
	}
	n, err := base64Size(payload)
	if err != nil {
		return err
	}
	cfg, got, err := image.DecodeConfig(base64.NewDecoder(base64.StdEncoding, strings.NewReader(payload)))
	if err != nil {
		return fmt.Errorf("the %s image cannot be read: %v", format, err)
	}
	if got != format {
		return fmt.Errorf("declared %s but the data is %s", mime, got)
	}
	u.Bytes, u.Width, u.Height, u.checked = n, cfg.Width, cfg.Height, true
	return nil
}

// base64Size checks that s is padded standard base64 and returns its
// decoded size.
func base64Size(s string) (int, error) {
	if len(s) == 0 || len(s)%4 != 0 {
		return 0, fmt.Errorf("the base64 data's length %d is not a positive multiple of 4", len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' && i >= len(s)-2) {
			return 0, fmt.Errorf("byte %d of the base64 data is %q, not base64", i, c)
		}
	}
	return len(s)/4*3 - strings.Count(s[len(s)-2:], "="), nil
}

// CheckAudio checks an audio part before any load: format wav or mp3 and
// data in padded standard base64. A checked clip is copied into request
// bodies as it is.
func (a *InputAudio) CheckAudio() error {
	if a.Format != "wav" && a.Format != "mp3" {
		return fmt.Errorf("format: want wav or mp3, got %q", a.Format)
	}
	if _, err := base64Size(a.Data); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	a.checked = true
	return nil
}

// Checked says whether CheckAudio accepted the clip.
func (a *InputAudio) Checked() bool { return a.checked }

// plainJSON says whether s needs no escaping inside a JSON string.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// short cuts a long URL for an error message.
func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// PreparedImageURL is an image whose data: URL its caller built itself
// from base64 that it encoded (or a file holding such a URL: spoolPath),
// with its measured size: it is marked checked without a second pass over
// its bytes.
func PreparedImageURL(url, spoolPath string, bytes, width, height int) *ImageURL {
	return &ImageURL{URL: url, SpoolPath: spoolPath, Bytes: bytes, Width: width, Height: height, checked: true}
}
