package openai_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/openai"
)

// A gateway that echoes a key, whole or cut short, gives none of it away:
// any 8-byte piece of a secret is redacted.
func ExampleRedactor() {
	r := openai.NewRedactor("gw-SECRET-0123456789")
	fmt.Println(r.Redact("invalid key gw-SECRET-0123456789"))
	fmt.Println(r.Redact("key gw-SECRET-01… was refused"))
	// Output:
	// invalid key [redacted]
	// key [redacted]… was refused
}

// An extra header may not replace one the client sets itself; the error
// names the header, never its value.
func ExampleValidateExtraHeader() {
	fmt.Println(openai.ValidateExtraHeader("X-Tenant", "blue"))
	fmt.Println(openai.ValidateExtraHeader("Authorization", "Bearer sk-live-0000"))
	// Output:
	// <nil>
	// header "Authorization": servebench sets this header itself and does not let it be replaced (give the key with --api-key-env (Client.APIKey))
}
