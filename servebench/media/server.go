package media

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ImageServer serves a pool's images over http for the http transport:
// GET /images/N.jpg (or .png) answers image N's encoded bytes, from memory
// or from its spool file.
type ImageServer struct {
	// URL is the server's root, "http://HOST:PORT".
	URL string
	srv *http.Server
	ln  net.Listener
}

// Serve starts the pool's file server on addr ("" is 127.0.0.1 on an
// ephemeral port; name the address an in-cluster engine can reach for
// one that runs elsewhere). Close stops it.
func (p *Pool) Serve(addr string) (*ImageServer, error) {
	if p.Spec.Transport != TransportHTTP {
		return nil, fmt.Errorf("image server: the pool's transport is %s, not http", p.Spec.Transport)
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("image server: %w", err)
	}
	s := &ImageServer{URL: "http://" + ln.Addr().String(), ln: ln}
	s.srv = &http.Server{Handler: http.HandlerFunc(p.serveImage), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *ImageServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}

// serveImage answers GET /images/N.EXT.
func (p *Pool) serveImage(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/images/")
	num, ext, _ := strings.Cut(name, ".")
	i, err := strconv.Atoi(num)
	if !ok || err != nil || i < 0 || i >= len(p.Images) || "."+ext != p.fileExt() || r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.NotFound(w, r)
		return
	}
	img := &p.Images[i]
	w.Header().Set("Content-Type", p.Spec.Format.MIME())
	if img.Path != "" {
		http.ServeFile(w, r, img.Path)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(img.Data)))
	_, _ = w.Write(img.Data)
}
