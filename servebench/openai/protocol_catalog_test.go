package openai

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

// TestEveryCatalogEndpointHasAProtocol: record's catalog and the client's
// protocols name the same endpoints, each protocol the one it is filed
// under.
func TestEveryCatalogEndpointHasAProtocol(t *testing.T) {
	endpoints := record.Endpoints()
	if len(endpoints) != len(protocols) {
		t.Fatalf("the catalog has %d endpoints and the client %d protocols", len(endpoints), len(protocols))
	}
	for _, e := range endpoints {
		p, ok := protocolFor(e)
		if !ok {
			t.Fatalf("endpoint %s has no protocol", e)
		}
		if p.endpoint() != e {
			t.Errorf("the protocol of %s says it serves %s", e, p.endpoint())
		}
	}
}
