package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Who may do what (docs/web.md, "Clients and owners"): every request
// carries a client identity, a random 128-bit id that the browser keeps in
// an HttpOnly, SameSite=Strict cookie set on its first visit. Every job,
// saved game and uploaded picture belongs to the identity that made it:
// lists show one's own, and another client's ids answer 404, as ids that
// do not exist do. Built-in pictures are everyone's. With a Config.Token
// (serve beyond loopback), a request must also show the token, once in
// the URL (?token=, exchanged for a cookie) or on each call
// (Authorization: Bearer TOKEN); without it the answer is 401.

// Cookie names.
const (
	clientCookie = "tessera_client"
	authCookie   = "tessera_auth"
)

// clientKey is the context key of the request's client identity.
type clientKey struct{}

// newClientID draws a client identity: 128 bits from crypto/rand.
func newClientID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// validClientID reports whether id has the form newClientID gives.
func validClientID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

// clientOf returns the client identity of a request (or of a context made
// from one), and false for a context that no request made: a job's.
func clientOf(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(clientKey{}).(string)
	return id, ok
}

// ownerOf returns the request's client identity.
func ownerOf(r *http.Request) string {
	id, _ := clientOf(r.Context())
	return id
}

// addressOf names the address a request came from, without the port, for
// the per-address bound on jobs.
func addressOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// identify gives each request its client identity: the cookie's, or a new
// one, set as the cookie in the answer.
func identify(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := ""
		if c, err := r.Cookie(clientCookie); err == nil && validClientID(c.Value) {
			id = c.Value
		} else {
			id = newClientID()
			http.SetCookie(w, &http.Cookie{Name: clientCookie, Value: id, Path: "/", MaxAge: 400 * 24 * 3600,
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, id)))
	})
}

// sessionValue is what the auth cookie holds for a token: a MAC of it,
// not the token itself.
func sessionValue(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("tessera web session"))
	return hex.EncodeToString(m.Sum(nil))
}

// requireToken lets through the requests that show the server's token
// (when it has one): in the auth cookie, in an Authorization header
// ("Bearer TOKEN" or "token TOKEN"), or as ?token=, which a page request
// exchanges for the cookie and a redirect to the same URL without it. The
// static files (scripts, styles, built-in pictures) need no token.
func (s *Server) requireToken(h http.Handler) http.Handler {
	token := s.cfg.Token
	if token == "" {
		return h
	}
	session := sessionValue(token)
	same := func(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/static/") {
			h.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(authCookie); err == nil && same(c.Value, session) {
			h.ServeHTTP(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		for _, scheme := range []string{"Bearer ", "token "} {
			if t, ok := strings.CutPrefix(auth, scheme); ok && same(t, token) {
				h.ServeHTTP(w, r)
				return
			}
		}
		q := r.URL.Query()
		if t := q.Get("token"); t != "" && same(t, token) {
			http.SetCookie(w, &http.Cookie{Name: authCookie, Value: session, Path: "/", MaxAge: 400 * 24 * 3600,
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
			if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") {
				q.Del("token")
				u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
				if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
					u.Path = "/" // a path only, never another host's (//host/...)
				}
				http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
				return
			}
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="tessera"`)
		if strings.HasPrefix(r.URL.Path, "/api/") {
			writeError(w, http.StatusUnauthorized, "this server asks for its token: open the address with ?token=... that `tessera serve` printed when it started, or send Authorization: Bearer TOKEN")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(tokenPage))
	})
}

// tokenPage is the answer to a page request without the token.
const tokenPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tessera: token needed</title>
<link rel="stylesheet" href="/static/css/app.css"></head>
<body><main><h1>This Tessera server asks for its token</h1>
<p>Open the address that <code>tessera serve</code> printed when it started
(it ends in <code>?token=…</code>); this browser then keeps a cookie and the
token leaves the address bar. Whoever runs the server can print it again with
<code>-token</code> or read it from where they started it.</p></main></body></html>
`
