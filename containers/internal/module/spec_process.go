package module

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/servebench/servebench/containers"
)

// ProcessPlan turns an engine module's Spec and the shared Settings into the
// ProcessSpec of a local process: the same engine arguments the container
// would get (Spec.Args, the API key, the caller's extra arguments), after
// the engine's own command (Spec.Process, its first word replaced by
// WithExecutable). The engine listens on a free 127.0.0.1 port.
//
// Settings that only mean something for a container are refused: shared
// memory, IPC and host network. WithGPUDeviceIDs becomes
// CUDA_VISIBLE_DEVICES; WithGPUs leaves the process every GPU it sees.
// WithModelCache sets the engine's cache variable (Spec.CacheEnv).
func ProcessPlan(spec Spec, s containers.Settings) (ProcessSpec, error) {
	if spec.Kind == "" {
		return ProcessSpec{}, errors.New("engine spec has no kind")
	}
	if len(spec.Process) == 0 {
		return ProcessSpec{}, fmt.Errorf("%s cannot run as a local process", spec.Kind)
	}
	if spec.HealthPath == "" {
		return ProcessSpec{}, errors.New("engine spec has no health path")
	}
	if spec.Listen == nil {
		return ProcessSpec{}, errors.New("engine spec says nothing about how the engine listens")
	}
	switch {
	case s.ShmSize > 0, s.IPCHost:
		return ProcessSpec{}, errors.New("WithShmSize/WithIPCHost apply to containers; a local process shares the host's")
	case s.HostNetwork:
		return ProcessSpec{}, errors.New("WithHostNetwork applies to containers; a local process always listens on 127.0.0.1")
	case s.APIKey != "" && spec.APIKey == nil:
		return ProcessSpec{}, fmt.Errorf("WithAPIKey: %s has no API key setting", spec.Kind)
	case s.ModelCacheDir != "" && spec.CacheEnv == "":
		return ProcessSpec{}, fmt.Errorf("WithModelCache: %s has no model cache variable", spec.Kind)
	}

	binary := spec.Process[0]
	if s.Executable != "" {
		binary = s.Executable
	}
	args := append(append([]string(nil), spec.Process[1:]...), spec.Args...)
	env := map[string]string{}
	if s.APIKey != "" {
		keyArgs, keyEnv := spec.APIKey(s.APIKey)
		args = append(args, keyArgs...)
		maps.Copy(env, keyEnv)
	}
	args = append(args, s.ExtraArgs...)
	if s.GPUs != nil && !s.GPUs.All {
		env["CUDA_VISIBLE_DEVICES"] = strings.Join(s.GPUs.DeviceIDs, ",")
	}
	if s.ModelCacheDir != "" {
		env[spec.CacheEnv] = s.ModelCacheDir
	}
	maps.Copy(env, s.Env)

	timeout := spec.StartupTimeout
	if s.StartupTimeout > 0 {
		timeout = s.StartupTimeout
	}
	return ProcessSpec{
		Kind:           spec.Kind,
		Binary:         binary,
		Args:           args,
		Env:            env,
		Listen:         spec.Listen,
		HealthPath:     spec.HealthPath,
		MetricsPath:    spec.MetricsPath,
		VersionPath:    spec.VersionPath,
		Model:          spec.Model,
		APIKey:         s.APIKey,
		StartupTimeout: timeout,
		LogBufferBytes: s.LogBufferBytes,
	}, nil
}

// RunModuleProcess is the body of an engine module's RunProcess: it stops
// at specErr (the error of reading the options) before anything starts,
// otherwise plans and starts the local process. Errors read "run <kind>
// process: …". Like RunModule it may return a process together with an
// error; Shutdown it in either case.
func RunModuleProcess(ctx context.Context, kind string, spec Spec, s containers.Settings, specErr error) (*Process, error) {
	if specErr != nil {
		return nil, fmt.Errorf("run %s process: %w", kind, specErr)
	}
	ps, err := ProcessPlan(spec, s)
	if err != nil {
		return nil, fmt.Errorf("run %s process: %w", kind, err)
	}
	p, err := StartProcess(ctx, ps)
	if err != nil {
		return p, fmt.Errorf("run %s process: %w", kind, err)
	}
	return p, nil
}
