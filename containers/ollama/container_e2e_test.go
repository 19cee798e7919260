package ollama_test

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/fixtures/gguf"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// No registry is reachable where this suite runs, so the real
// ollama/ollama image cannot be pulled. The container path is exercised
// with a stand-in image laid out like the real one (ENTRYPOINT
// ["/bin/ollama"], CMD ["serve"], OLLAMA_HOST=0.0.0.0:11434): the locally
// built binary and the shared libraries it links, on an empty base, built
// from an in-memory context by the classic builder. Run receives it through
// a testcontainers option that replaces the image with the build, so Run's
// own code (file copies, `ollama create` inside the container, load,
// readiness, identity, terminate) is what runs.
const standInDockerfile = `FROM scratch
COPY rootfs/ /
ENV OLLAMA_HOST=0.0.0.0:11434 HOME=/root PATH=/usr/bin:/bin
ENTRYPOINT ["/bin/ollama"]
CMD ["serve"]
`

// lddPath matches a library path in ldd's output.
var lddPath = regexp.MustCompile(`(/\S+\.so[.\d]*)`)

// standInContext returns a Docker build context holding the binary at
// /bin/ollama and every library ldd lists, at the same paths.
func standInContext(binary string) []byte {
	out, err := exec.Command("ldd", binary).Output()
	Expect(err).NotTo(HaveOccurred(), "ldd %s", binary)
	files := map[string]string{"rootfs/bin/ollama": binary}
	for _, m := range lddPath.FindAllStringSubmatch(string(out), -1) {
		files["rootfs"+m[1]] = m[1]
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(name string, mode int64, data []byte) {
		Expect(tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), Typeflag: tar.TypeReg})).To(Succeed())
		_, err := tw.Write(data)
		Expect(err).NotTo(HaveOccurred())
	}
	for _, dir := range []string{"rootfs/tmp/", "rootfs/root/"} {
		Expect(tw.WriteHeader(&tar.Header{Name: dir, Mode: 0o1777, Typeflag: tar.TypeDir})).To(Succeed())
	}
	add("Dockerfile", 0o644, []byte(standInDockerfile))
	for name, src := range files {
		data, err := os.ReadFile(src) // follows symlinks: the library's content under its linked name
		Expect(err).NotTo(HaveOccurred())
		add(name, 0o755, data)
	}
	Expect(tw.Close()).To(Succeed())
	return buf.Bytes()
}

var _ = Describe("Ollama as a container (stand-in image)", Ordered, func() {
	var c *ollama.Container

	BeforeAll(func(ctx SpecContext) {
		if reason := containers.DockerSkipReason(ctx); reason != "" {
			if containers.DockerRequired() {
				Fail(containers.EnvRequireDocker + "=1 but " + reason)
			}
			Skip(reason)
		}
		binary, err := ollama.FindBinary()
		Expect(err).NotTo(HaveOccurred())
		model := filepath.Join(GinkgoT().TempDir(), "tiny.gguf")
		_, err = gguf.WriteFile(model, gguf.Options{Seed: 4})
		Expect(err).NotTo(HaveOccurred())

		archive := standInContext(binary)
		build := testcontainers.CustomizeRequestOption(func(req *testcontainers.GenericContainerRequest) error {
			req.Image = ""
			req.FromDockerfile = testcontainers.FromDockerfile{
				ContextArchive: bytes.NewReader(archive),
				Repo:           "servebench-ollama-standin",
				Tag:            fmt.Sprint(time.Now().UnixNano()),
			}
			return nil
		})
		start := time.Now()
		c, err = ollama.Run(ctx, "servebench-ollama-standin", ollama.WithModelFile(model), ollama.WithNumPredict(32),
			containers.WithStartupTimeout(3*time.Minute), build)
		DeferCleanup(func(ctx SpecContext) {
			if c != nil {
				Expect(c.Shutdown(ctx)).To(Succeed())
			}
		}, NodeTimeout(time.Minute))
		Expect(err).NotTo(HaveOccurred())
		GinkgoWriter.Printf("stand-in image built and Ollama ready in %s (cold start %s)\n", time.Since(start).Round(time.Millisecond), c.ColdStart().Round(time.Millisecond))
	}, NodeTimeout(5*time.Minute))

	It("serves the model created inside the container, on a port published on 127.0.0.1 only", func() {
		Expect(c.BaseURL()).To(HavePrefix("http://127.0.0.1:"))
		Expect(c.Model()).To(Equal("tiny"))
		o := do(&openai.Client{BaseURL: c.BaseURL(), Model: c.Model(), Endpoint: record.EndpointChat,
			LengthControl: ollama.LengthControl(), TotalTimeout: time.Minute}, chatRow("k1", "the old house", 12))
		Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
		Expect(o.OutputTokens).To(HaveValue(Equal(12)))
		Expect(o.ContentMS).To(HaveLen(12))
	})

	It("records the image, the version and a cold start that covers create and load", func() {
		id := c.Identity()
		Expect(id.Kind).To(Equal("ollama"))
		Expect(id.ImageID).To(HavePrefix("sha256:"))
		Expect(id.Version).To(MatchRegexp(`^\d+\.\d+\.\d+`))
		Expect(id.Args).To(Equal([]string{"serve"}))
		Expect(c.ColdStart()).To(BeNumerically(">", c.Base.ColdStart()))
		Expect(c.ColdStart()).To(BeNumerically("<", time.Minute), "the image build is not part of the cold start")
		Expect(c.Command()).To(Equal([]string{"/bin/ollama", "serve"}))
		Expect(c.Modelfile()).To(HavePrefix("FROM " + ollama.ContainerModelFile + "\n"))
		Expect(c.Modelfile()).To(ContainSubstring("PARAMETER num_predict 32\n"))
	})

	It("keeps the engine's log", func(ctx SpecContext) {
		rc, err := c.Logs(ctx)
		Expect(err).NotTo(HaveOccurred())
		defer rc.Close()
		logs, err := io.ReadAll(rc)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(logs)).To(ContainSubstring(`POST     "/api/create"`))
	})

	It("is gone after Shutdown", func(ctx SpecContext) {
		id := c.GetContainerID()
		Expect(c.Shutdown(ctx)).To(Succeed())
		c = nil
		out, _ := exec.CommandContext(ctx, "docker", "ps", "-aq", "--filter", "id="+id).Output()
		Expect(strings.TrimSpace(string(out))).To(BeEmpty())
	})

})
