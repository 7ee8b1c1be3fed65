package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With a token (serve beyond loopback), a request without it gets 401; the
// URL's ?token= is exchanged for a cookie and a redirect without it; API
// clients may send it in a header; static files need none.
func TestToken(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	s, _ := newServer(t, Config{Token: token})
	wantError(t, call(t, s, "GET", "/api/pictures", nil), http.StatusUnauthorized, "token")
	wantError(t, call(t, s, "GET", "/api/pictures?token=wrong", nil), http.StatusUnauthorized, "token")
	wantError(t, call(t, s, "GET", "/api/pictures", nil, "Authorization", "Bearer wrong"), http.StatusUnauthorized, "token")
	if w := call(t, s, "GET", "/npuzzle", nil); w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), "token") {
		t.Errorf("page without the token: %d %s", w.Code, w.Body)
	}
	if w := call(t, s, "GET", "/static/css/app.css", nil); w.Code != 200 {
		t.Errorf("static file without the token: %d", w.Code)
	}

	// The printed URL: a cookie, and the token leaves the address.
	w := call(t, s, "GET", "/npuzzle?token="+token+"&x=1", nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/npuzzle?x=1" {
		t.Fatalf("page with the token: %d, Location %q", w.Code, w.Header().Get("Location"))
	}
	var auth *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == authCookie {
			auth = c
		}
	}
	if auth == nil || !auth.HttpOnly || auth.SameSite != http.SameSiteStrictMode || strings.Contains(auth.Value, token) {
		t.Fatalf("auth cookie %+v", auth)
	}
	cookie := clientCookie + "=" + testClient + "; " + authCookie + "=" + auth.Value
	if w := call(t, s, "GET", "/npuzzle", nil, "Cookie", cookie); w.Code != 200 {
		t.Errorf("page with the cookie: %d", w.Code)
	}
	if w := call(t, s, "GET", "/api/pictures", nil, "Cookie", cookie); w.Code != 200 {
		t.Errorf("API with the cookie: %d", w.Code)
	}
	for _, h := range []string{"Bearer " + token, "token " + token} {
		if w := call(t, s, "GET", "/api/pictures", nil, "Authorization", h); w.Code != 200 {
			t.Errorf("API with %q: %d", h, w.Code)
		}
	}
	if w := call(t, s, "GET", "/api/pictures?token="+token, nil); w.Code != 200 {
		t.Errorf("API with ?token=: %d", w.Code)
	}
	// The redirect stays on this server.
	if w := call(t, s, "GET", "//evil.example/x?token="+token, nil); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" {
		t.Errorf("//evil.example: %d, Location %q", w.Code, w.Header().Get("Location"))
	}
	// The cookie of another token does not open this server.
	other := clientCookie + "=" + testClient + "; " + authCookie + "=" + sessionValue("another")
	wantError(t, call(t, s, "GET", "/api/pictures", nil, "Cookie", other), http.StatusUnauthorized, "token")
}

// Without a token (loopback), nothing is asked.
func TestNoToken(t *testing.T) {
	s, _ := newServer(t, Config{})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/api/pictures", nil))
	if w.Code != 200 {
		t.Errorf("no token configured: %d", w.Code)
	}
}
