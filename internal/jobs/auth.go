package jobs

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// Files of the credentials in a store folder.
const (
	// TokenFile holds the server's token (mode 0600): whoever can read it
	// can do anything on the server (see the package doc, Security).
	TokenFile = "token"
	// CertFile and KeyFile are the self-signed certificate (the clients'
	// -tls-ca) and its key (mode 0600), made at the first start beyond
	// loopback without a certificate given.
	CertFile = "tls-cert.pem"
	KeyFile  = "tls-key.pem"
)

// Environment variables that Connect reads when no option and no token
// in the URL say otherwise: a file holding the token (as a store's
// TokenFile) and the certificate (PEM) that signs the server's.
const (
	EnvCreds = "TESSERA_NATS_CREDS"
	EnvCA    = "TESSERA_NATS_CA"
)

// ReadToken reads a token file (a store's TokenFile, or a copy of it):
// its first line, trimmed.
func ReadToken(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("jobs: token: %w", err)
	}
	tok, _, _ := strings.Cut(string(b), "\n")
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", fmt.Errorf("jobs: token file %s is empty", file)
	}
	return tok, nil
}

// writeSecret writes b to file with mode 0600, atomically.
func writeSecret(file string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".secret-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// storeToken returns the store's token: given (then written to the store
// for local clients), read from TokenFile, or drawn from crypto/rand
// (256 bits) and written there at the first start (made true).
func storeToken(dir, given string) (tok string, made bool, err error) {
	file := filepath.Join(dir, TokenFile)
	if given != "" {
		if strings.ContainsAny(given, " \t\r\n@:/") {
			return "", false, errors.New("jobs: a token must not hold blanks, '@', ':' or '/'")
		}
		if old, err := ReadToken(file); err == nil && old == given {
			return given, false, os.Chmod(file, 0o600)
		}
		return given, false, writeSecret(file, []byte(given+"\n"))
	}
	if tok, err := ReadToken(file); err == nil {
		// Kept private even if someone loosened it.
		return tok, false, os.Chmod(file, 0o600)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", false, err
	}
	var b [32]byte
	rand.Read(b[:])
	tok = hex.EncodeToString(b[:])
	if err := writeSecret(file, []byte(tok+"\n")); err != nil {
		return "", false, fmt.Errorf("jobs: writing the token: %w", err)
	}
	return tok, true, nil
}

// isLoopback reports whether host (a listening host) reaches only this
// machine: localhost or a loopback address. "", 0.0.0.0 and :: listen
// everywhere; a name other than localhost may be anything.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serverTLS returns the client listener's TLS configuration: the given
// certificate and key, or the store's self-signed pair, made at the
// first start for this machine's names and addresses (and host). It
// returns the certificate's file, for the clients' -tls-ca.
func serverTLS(dir, certFile, keyFile, host string) (*tls.Config, string, error) {
	if (certFile == "") != (keyFile == "") {
		return nil, "", errors.New("jobs: give both a TLS certificate and its key, or neither")
	}
	if certFile == "" {
		certFile, keyFile = filepath.Join(dir, CertFile), filepath.Join(dir, KeyFile)
		if _, err := os.Stat(certFile); errors.Is(err, os.ErrNotExist) {
			if err := selfSign(certFile, keyFile, host); err != nil {
				return nil, "", fmt.Errorf("jobs: making a TLS certificate: %w", err)
			}
		}
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, "", fmt.Errorf("jobs: TLS: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, certFile, nil
}

// selfSign writes a self-signed ECDSA P-256 certificate, valid ten years,
// for localhost, this host's name, the loopback and every interface
// address, and host when it names one.
func selfSign(certFile, keyFile, host string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "tessera jobs server", Organization: []string{"tessera"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, h)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
				tmpl.IPAddresses = append(tmpl.IPAddresses, n.IP)
			}
		}
	}
	if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
		tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
	} else if host != "" && ip == nil {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := writeSecret(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})); err != nil {
		return err
	}
	var buf bytes.Buffer
	pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	return os.WriteFile(certFile, buf.Bytes(), 0o644)
}

// clusterTLS returns the routes' TLS configuration: the node's
// certificate and key, verified both ways against the CA that signs every
// node's certificate.
func clusterTLS(certFile, keyFile, caFile string) (*tls.Config, error) {
	if certFile == "" || keyFile == "" || caFile == "" {
		return nil, errors.New("jobs: a cluster beyond loopback needs TLS on its routes: give every node a certificate and key " +
			"signed by one CA, and that CA (-tls-cert, -tls-key, -tls-ca)")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("jobs: cluster TLS: %w", err)
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("jobs: cluster TLS: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("jobs: cluster TLS: no certificate in %s", caFile)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: pool, ClientCAs: pool,
		ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12}, nil
}

// WithToken gives Connect the server's token (see Connect).
func WithToken(tok string) Option { return func(o *options) { o.token = tok } }

// WithCreds gives Connect a file holding the server's token (a copy of
// the store's TokenFile).
func WithCreds(file string) Option { return func(o *options) { o.creds = file } }

// WithTLSCA makes Connect require TLS and verify the server's
// certificate against the certificate(s) in file (PEM): the server
// store's CertFile, or the CA that signed the server's certificate.
func WithTLSCA(file string) Option { return func(o *options) { o.tlsCA = file } }

// urlHasAuth reports whether any of the comma-separated URLs carries a
// user or token.
func urlHasAuth(urls string) bool {
	for _, u := range strings.Split(urls, ",") {
		if p, err := url.Parse(strings.TrimSpace(u)); err == nil && p.User != nil {
			return true
		}
	}
	return false
}

// urlsLoopback reports whether every one of the comma-separated URLs
// names this machine by a loopback host.
func urlsLoopback(urls string) bool {
	for _, u := range strings.Split(urls, ",") {
		u = strings.TrimSpace(u)
		if !strings.Contains(u, "://") {
			u = "nats://" + u
		}
		p, err := url.Parse(u)
		if err != nil || !isLoopback(p.Hostname()) {
			return false
		}
	}
	return true
}

// credential is one way to authenticate: a token (empty: none) and the
// certificate that verifies the server's (empty: none), required or only
// used when the server asks for TLS.
type credential struct {
	token, ca  string
	requireTLS bool
	from       string
}

func (cr credential) natsOptions() []nats.Option {
	var out []nats.Option
	if cr.token != "" {
		out = append(out, nats.Token(cr.token))
	}
	if cr.ca != "" {
		ca, require := cr.ca, cr.requireTLS
		out = append(out, func(o *nats.Options) error {
			if err := nats.RootCAs(ca)(o); err != nil {
				return err
			}
			// A local store's certificate verifies the server if it asks
			// for TLS; it does not make a loopback server without TLS
			// unreachable.
			o.Secure = require
			return nil
		})
	}
	return out
}

// credentials lists the ways to authenticate to url, in order (see
// Connect).
func (o options) credentials(url string) ([]credential, error) {
	ca, caRequired := o.tlsCA, o.tlsCA != "" && !o.localCA
	if ca == "" {
		if ca = os.Getenv(EnvCA); ca != "" {
			caRequired = true
		}
	}
	if urlHasAuth(url) {
		return []credential{{ca: ca, requireTLS: caRequired, from: "the URL"}}, nil
	}
	if o.token != "" {
		return []credential{{token: o.token, ca: ca, requireTLS: caRequired, from: "the token given"}}, nil
	}
	file, from := o.creds, "-creds"
	if file == "" {
		file, from = os.Getenv(EnvCreds), "$"+EnvCreds
	}
	if file != "" {
		tok, err := ReadToken(file)
		if err != nil {
			return nil, err
		}
		return []credential{{token: tok, ca: ca, requireTLS: caRequired, from: from + " " + file}}, nil
	}
	// On this machine: the default stores' tokens, tried in turn.
	var out []credential
	if urlsLoopback(url) {
		for _, dir := range []string{DefaultServerDir(), DefaultDir()} {
			tok, err := ReadToken(filepath.Join(dir, TokenFile))
			if err != nil {
				continue
			}
			cr := credential{token: tok, ca: ca, requireTLS: caRequired, from: filepath.Join(dir, TokenFile)}
			if cr.ca == "" {
				if c := filepath.Join(dir, CertFile); fileExists(c) {
					cr.ca = c
				}
			}
			out = append(out, cr)
		}
	}
	return append(out, credential{ca: ca, requireTLS: caRequired, from: "no credentials"}), nil
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// withLocalCA verifies a server's TLS with file when it asks for TLS
// (StartEmbedded's own client).
func withLocalCA(file string) Option {
	return func(o *options) {
		if file != "" {
			o.tlsCA, o.localCA = file, true
		}
	}
}
