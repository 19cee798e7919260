package module_test

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
)

// Assemble turns an engine Spec and the shared options into the container
// request an engine module starts; nothing runs here. This is how a module
// for another engine is written.
func ExampleAssemble() {
	spec := module.Spec{
		Kind:  "myengine",
		Image: "example.org/myengine:1.0",
		Args:  []string{"--model", "tiny"},
		Port:  9000,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		HealthPath:     "/health",
		Model:          "tiny",
		StartupTimeout: containers.DefaultModelStartupTimeout,
	}
	opts := []testcontainers.ContainerCustomizer{containers.WithGPUs(), containers.WithShmSize(2 << 30)}
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err != nil {
		panic(err)
	}
	plan, err := module.Assemble(spec, s, opts)
	if err != nil {
		panic(err)
	}
	hc := plan.HostConfig()
	fmt.Println("cmd:", strings.Join(plan.Request.Cmd, " "))
	fmt.Println("published:", plan.Request.ExposedPorts, "on", hc.PortBindings[network.MustParsePort(plan.Port)][0].HostIP)
	fmt.Println("gpus:", hc.DeviceRequests[0].Driver, hc.DeviceRequests[0].Count, "shm:", hc.ShmSize)
	// Output:
	// cmd: --model tiny --host 0.0.0.0 --port 9000
	// published: [9000/tcp] on 127.0.0.1
	// gpus: nvidia -1 shm: 2147483648
}

// A module declares its engine's flags once; each With… option is one call.
func ExampleFlagSet() {
	flags := module.FlagSet{Kind: "myengine", Order: []string{"--model", "--max-seqs"}}
	withMaxSeqs := func(n int) module.FlagOption { return flags.Positive("WithMaxSeqs", "--max-seqs", n) }
	withModel := func(m string) module.FlagOption { return flags.Text("WithModel", "--model", m) }

	f, err := flags.Collect([]testcontainers.ContainerCustomizer{withMaxSeqs(64), withModel("tiny")})
	fmt.Println(f.Args(), err)
	_, err = flags.Collect([]testcontainers.ContainerCustomizer{withMaxSeqs(0)})
	fmt.Println(err)
	// Output:
	// [--model tiny --max-seqs 64] <nil>
	// myengine.WithMaxSeqs: must be positive, got 0
}

// An engine module's spec becomes a local process's: the same arguments,
// the process's own executable, CUDA_VISIBLE_DEVICES for the GPUs.
func ExampleProcessPlan() {
	spec := module.Spec{
		Kind: "vllm", Process: []string{"vllm", "serve"}, Args: []string{"--model", "m"},
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		HealthPath: "/health",
	}
	var s containers.Settings
	for _, o := range []containers.Option{containers.WithExecutable("/opt/vllm/bin/vllm"), containers.WithGPUDeviceIDs("1")} {
		if err := o(&s); err != nil {
			fmt.Println(err)
		}
	}
	ps, err := module.ProcessPlan(spec, s)
	fmt.Println(ps.Binary, ps.Args, ps.Env, err)
	// Output:
	// /opt/vllm/bin/vllm [serve --model m] map[CUDA_VISIBLE_DEVICES:1] <nil>
}
