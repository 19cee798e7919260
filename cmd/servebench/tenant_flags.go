package main

import (
	"flag"
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// tenantFlags name the request headers whose values the outcomes record
// (not redact): the tenant's and the objective's.
type tenantFlags struct {
	tenantHeader, objectiveHeader string
	critical                      urlList // comma-separated or repeated values
}

func (f *tenantFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.tenantHeader, "tenant-header", record.DefaultTenantHeader,
		"the request header that names a request's tenant (from a row's headers or a --header): its values are recorded in each outcome, not redacted, and report.json breaks the run down by tenant")
	fs.StringVar(&f.objectiveHeader, "objective-header", record.DefaultObjectiveHeader,
		"the request header that names a request's objective (its priority band): its values are recorded in each outcome, not redacted")
	fs.Var(&f.critical, "critical-objectives",
		"the --objective-header values that must not be shed (repeat the flag or separate with commas): report.json shed_order checks that no request of one was rejected (429, 503) in a 1 s window in which a request of another objective was admitted")
}

// apply sets the client's tenant and objective headers.
func (f *tenantFlags) apply(s *servebench.Settings) error {
	for _, h := range []struct{ flag, name string }{{"--tenant-header", f.tenantHeader}, {"--objective-header", f.objectiveHeader}} {
		if err := openai.ValidateExtraHeader(h.name, ""); err != nil {
			return fmt.Errorf("%s: %w", h.flag, err)
		}
	}
	s.Client.TenantHeader, s.Client.ObjectiveHeader = f.tenantHeader, f.objectiveHeader
	s.Score.CriticalObjectives = f.critical
	return nil
}
