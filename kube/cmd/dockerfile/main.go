// Command dockerfile prints the servebench image's Dockerfile, so that
// build-image.sh and the Go build share one recipe.
package main

import (
	"fmt"

	"github.com/servebench/servebench/kube"
)

func main() { fmt.Print(kube.Dockerfile) }
