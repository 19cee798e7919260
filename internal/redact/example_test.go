package redact_test

import (
	"fmt"

	"github.com/servebench/servebench/internal/redact"
)

// A gateway that echoes a key, whole or cut short, gives none of it away:
// any 8-byte piece of a secret is redacted.
func ExampleRedactor() {
	r := redact.New("gw-SECRET-0123456789")
	fmt.Println(r.Redact("invalid key gw-SECRET-0123456789"))
	fmt.Println(r.Redact("key gw-SECRET-01… was refused"))
	// Output:
	// invalid key [redacted]
	// key [redacted]… was refused
}

// A base URL with a user name and password is written to reports and logs
// without them.
func ExampleURL() {
	fmt.Println(redact.URL("http://gateway:s3cret@127.0.0.1:8000/v1"))
	fmt.Println(redact.URL("http://127.0.0.1:8000"))
	// Output:
	// http://[redacted]@127.0.0.1:8000/v1
	// http://127.0.0.1:8000
}
