package sse_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/servebench/servebench/servebench/sse"
)

func ExampleReader() {
	stream := ": keepalive\r\n" +
		"data: {\"choices\":[{\"text\":\"Hel\"}]}\r\n\r\n" +
		"event: error\r\ndata: line one\r\ndata: line two\r\n\r\n" +
		"data: [DONE]\r\n\r\n"
	r := sse.NewReader(strings.NewReader(stream))
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		// ev.Data is reused by the next call: convert or copy it here.
		fmt.Printf("%s type=%q data=%q\n", ev.Kind, ev.Type, ev.Data)
	}
	// Output:
	// comment type="" data=" keepalive"
	// event type="" data="{\"choices\":[{\"text\":\"Hel\"}]}"
	// event type="error" data="line one\nline two"
	// event type="" data="[DONE]"
}
