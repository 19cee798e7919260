package module

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/internal/redact"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// LabelEngine is the container label that names the engine kind.
const LabelEngine = "org.servebench.engine"

// loopback is where published ports and host-network engines listen.
var loopback = netip.MustParseAddr("127.0.0.1")

// readinessPollInterval is how often the health endpoint is polled; it is
// the resolution of the measured cold-start time.
const readinessPollInterval = 100 * time.Millisecond

// Assemble builds the container request for spec with the shared settings,
// then applies the caller's customizers (testcontainers options) on top, so
// that the caller wins. Options of type Option and a module's own options are
// no-ops at that stage.
func Assemble(spec Spec, s containers.Settings, user []testcontainers.ContainerCustomizer) (Plan, error) {
	if spec.Kind == "" {
		return Plan{}, errors.New("engine spec has no kind")
	}
	if spec.Build == nil && spec.Image == "" {
		return Plan{}, errors.New("no image given")
	}
	if spec.HealthPath == "" {
		return Plan{}, errors.New("engine spec has no health path")
	}
	if spec.Listen == nil {
		return Plan{}, errors.New("engine spec says nothing about how the engine listens")
	}
	if s.ModelCacheDir != "" && spec.CachePath == "" {
		return Plan{}, fmt.Errorf("WithModelCache: %s has no model cache path", spec.Kind)
	}
	if s.APIKey != "" && spec.APIKey == nil {
		return Plan{}, fmt.Errorf("WithAPIKey: %s has no API key setting", spec.Kind)
	}

	host, port := "0.0.0.0", spec.Port
	if s.HostNetwork {
		free, err := FreeLoopbackPort()
		if err != nil {
			return Plan{}, fmt.Errorf("host network: %w", err)
		}
		host, port = loopback.String(), free
	}
	if port <= 0 {
		return Plan{}, fmt.Errorf("%s: no port to listen on", spec.Kind)
	}
	portSpec := strconv.Itoa(port) + "/tcp"

	listenArgs, listenEnv := spec.Listen(host, port)
	args := append(append([]string(nil), spec.Args...), listenArgs...)
	env := map[string]string{}
	maps.Copy(env, spec.Env)
	maps.Copy(env, listenEnv)
	if s.APIKey != "" {
		keyArgs, keyEnv := spec.APIKey(s.APIKey)
		args = append(args, keyArgs...)
		maps.Copy(env, keyEnv)
	}
	args = append(args, s.ExtraArgs...)
	maps.Copy(env, s.Env)

	timeout := spec.StartupTimeout
	if timeout <= 0 {
		timeout = containers.DefaultStartupTimeout
	}
	if s.StartupTimeout > 0 {
		timeout = s.StartupTimeout
	}

	health := wait.ForHTTP(spec.HealthPath).
		WithPort(portSpec).
		WithStartupTimeout(timeout).
		WithPollInterval(readinessPollInterval).
		WithForcedIPv4LocalHost()
	if s.APIKey != "" {
		health = health.WithHeaders(map[string]string{"Authorization": "Bearer " + s.APIKey})
	}

	req := testcontainers.GenericContainerRequest{
		Started: true,
		ContainerRequest: testcontainers.ContainerRequest{
			Image:      spec.Image,
			Entrypoint: append([]string(nil), spec.Entrypoint...),
			Cmd:        append(append([]string(nil), spec.Program...), args...),
			Env:        env,
			Labels:     map[string]string{LabelEngine: spec.Kind},
			WaitingFor: health,
		},
	}
	if spec.Build != nil {
		req.Image = ""
		req.FromDockerfile = *spec.Build
	}
	if !s.HostNetwork {
		req.ExposedPorts = []string{portSpec}
	}
	req.HostConfigModifier = hostConfig(spec, s, portSpec)

	for _, opt := range user {
		if err := opt.Customize(&req); err != nil {
			return Plan{}, fmt.Errorf("customize: %w", err)
		}
	}

	logBytes := s.LogBufferBytes
	if logBytes <= 0 {
		logBytes = containers.DefaultLogBufferBytes
	}
	image := spec.Image
	if spec.Build != nil {
		image = ""
	}
	return Plan{
		Request:        req,
		Kind:           spec.Kind,
		Image:          image,
		Model:          spec.Model,
		Port:           portSpec,
		HealthPath:     spec.HealthPath,
		MetricsPath:    spec.MetricsPath,
		VersionPath:    spec.VersionPath,
		Args:           redact.New(s.APIKey).Strings(args),
		GPU:            s.GPUs != nil,
		HostNetwork:    s.HostNetwork,
		APIKey:         s.APIKey,
		LogBufferBytes: logBytes,
	}, nil
}

// hostConfig returns the host-config modifier for the shared settings:
// network mode and published port, IPC and shared memory, GPUs, and the
// model-cache mount.
func hostConfig(spec Spec, s containers.Settings, portSpec string) func(*container.HostConfig) {
	return func(hc *container.HostConfig) {
		if s.HostNetwork {
			hc.NetworkMode = container.NetworkMode(network.NetworkHost)
		} else {
			p := network.MustParsePort(portSpec)
			if hc.PortBindings == nil {
				hc.PortBindings = network.PortMap{}
			}
			hc.PortBindings[p] = []network.PortBinding{{HostIP: loopback}}
		}

		switch {
		case s.ShmSize > 0:
			hc.ShmSize = s.ShmSize
			if s.IPCHost {
				hc.IpcMode = container.IPCModeHost
			}
		case s.IPCHost || spec.IPCHost:
			hc.IpcMode = container.IPCModeHost
		case spec.ShmSize > 0:
			hc.ShmSize = spec.ShmSize
		}

		if s.GPUs != nil {
			req := container.DeviceRequest{Driver: "nvidia", Capabilities: [][]string{{"gpu"}}}
			if s.GPUs.All {
				req.Count = -1
			} else {
				req.DeviceIDs = append([]string(nil), s.GPUs.DeviceIDs...)
			}
			hc.DeviceRequests = append(hc.DeviceRequests, req)
		}

		if s.ModelCacheDir != "" {
			hc.Mounts = append(hc.Mounts, mount.Mount{
				Type:   mount.TypeBind,
				Source: s.ModelCacheDir,
				Target: spec.CachePath,
			})
		}
	}
}

// FreeLoopbackPort asks the kernel for a TCP port that is free on 127.0.0.1
// at the time of the call.
func FreeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(loopback.String(), "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
