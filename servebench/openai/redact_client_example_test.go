package openai_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/openai"
)

// A base URL with a user name and password is written to reports and logs
// without them.
func ExampleRedactURL() {
	fmt.Println(openai.RedactURL("http://gateway:s3cret@127.0.0.1:8000/v1"))
	fmt.Println(openai.RedactURL("http://127.0.0.1:8000"))
	// Output:
	// http://[redacted]@127.0.0.1:8000/v1
	// http://127.0.0.1:8000
}
