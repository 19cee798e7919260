package containers

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recordingTB records what a skip helper asked of the test.
type recordingTB struct {
	skipped, fatal string
}

func (r *recordingTB) Helper()           {}
func (r *recordingTB) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recordingTB) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }

func TestSkipIfNoDocker(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	present := dockerCLIAnswers(t)

	t.Setenv(EnvRequireDocker, "")
	var rec recordingTB
	SkipIfNoDocker(ctx, &rec)
	if present && (rec.skipped != "" || rec.fatal != "") {
		t.Errorf("engine present, yet skip %q fatal %q", rec.skipped, rec.fatal)
	}
	if !present && (!strings.Contains(rec.skipped, "needs a Docker engine") || rec.fatal != "") {
		t.Errorf("no engine: skip %q fatal %q", rec.skipped, rec.fatal)
	}

	t.Setenv(EnvRequireDocker, "1")
	rec = recordingTB{}
	SkipIfNoDocker(ctx, &rec)
	if present && (rec.skipped != "" || rec.fatal != "") {
		t.Errorf("engine present, yet skip %q fatal %q", rec.skipped, rec.fatal)
	}
	if !present && (rec.skipped != "" || !strings.HasPrefix(rec.fatal, EnvRequireDocker+"=1 but")) {
		t.Errorf("required and absent: skip %q fatal %q", rec.skipped, rec.fatal)
	}
}

func TestSkipIfNoGPU(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	gpu := GPUAvailable(ctx) == nil

	t.Setenv(EnvRequireGPU, "")
	var rec recordingTB
	SkipIfNoGPU(ctx, &rec)
	if gpu != (rec.skipped == "") || rec.fatal != "" {
		t.Errorf("gpu %v: skip %q fatal %q", gpu, rec.skipped, rec.fatal)
	}
	if !gpu && !strings.Contains(rec.skipped, "NVIDIA runtime") {
		t.Errorf("skip reason %q", rec.skipped)
	}

	t.Setenv(EnvRequireGPU, "1")
	rec = recordingTB{}
	SkipIfNoGPU(ctx, &rec)
	if gpu != (rec.fatal == "") || rec.skipped != "" {
		t.Errorf("required, gpu %v: skip %q fatal %q", gpu, rec.skipped, rec.fatal)
	}
}
