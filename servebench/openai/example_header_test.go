package openai_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/openai"
)

// An extra header may not replace one the client sets itself; the error
// names the header, never its value.
func ExampleValidateExtraHeader() {
	fmt.Println(openai.ValidateExtraHeader("X-Tenant", "blue"))
	fmt.Println(openai.ValidateExtraHeader("Authorization", "Bearer sk-live-0000"))
	// Output:
	// <nil>
	// header "Authorization": servebench sets this header itself and does not let it be replaced (give the key with --api-key-env (Client.APIKey))
}
