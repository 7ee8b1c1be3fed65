package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"
)

// apiError is an error with the HTTP status it answers to. Handlers return
// it; serveAPI writes it as {"error": "..."}.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

// errorf returns an apiError with the given status.
func errorf(status int, format string, args ...any) error {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

// errorJSON is the body of every error answer.
type errorJSON struct {
	Error string `json:"error"`
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // a programming error: every answer type marshals
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error: cannot encode the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeError writes {"error": msg} with the given status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorJSON{msg})
}

// apiHandler is a JSON endpoint: it returns the status and value to write,
// or an error. An apiError sets the status; any other error is a 500 whose
// details are logged, not sent.
type apiHandler func(r *http.Request) (int, any, error)

// serveAPI adapts an apiHandler to http.Handler.
func (s *Server) serveAPI(h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status, v, err := h(r)
		switch {
		case err != nil:
			s.fail(w, r, err)
		case status == http.StatusNoContent:
			w.WriteHeader(status)
		default:
			writeJSON(w, status, v)
		}
	}
}

// fail answers err as JSON: an apiError with its status, an oversized body
// with 413, a request that ended with 503, anything else with a 500 whose
// details go to the log only.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		writeError(w, ae.status, ae.msg)
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mbe.Limit))
	case r.Context().Err() != nil:
		// The client left or the server is stopping.
		writeError(w, http.StatusServiceUnavailable, "request cancelled")
	default:
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
	}
}

// decodeJSON reads a JSON request body of at most limit bytes into v. It
// insists on the JSON media type and rejects unknown fields and trailing
// data, so that typos in field names are reported, not ignored.
func decodeJSON(r *http.Request, limit int64, v any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "the request body must be JSON (Content-Type: application/json)")
	}
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return errorf(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(http.StatusBadRequest, "malformed JSON: data after the object")
	}
	return nil
}

// solveTimeout is the time limit a solve request asks for: ms milliseconds,
// 10 ms to MaxSolveTimeout, or def when ms is 0.
func (s *Server) solveTimeout(ms int, def time.Duration) (time.Duration, error) {
	if ms == 0 {
		return def, nil
	}
	t := time.Duration(ms) * time.Millisecond
	if t < 10*time.Millisecond || t > s.cfg.MaxSolveTimeout {
		return 0, errorf(http.StatusBadRequest, "timeout_ms %d out of range 10..%d", ms, s.cfg.MaxSolveTimeout.Milliseconds())
	}
	return t, nil
}

// Seed is a 64-bit seed as the API writes it: a JSON string of its decimal
// digits, since a browser's numbers keep only 53 bits (a seed sent as a
// number came back rounded, and dealt another board). It reads a string
// or, from older saves and clients, a number.
type Seed uint64

// MarshalJSON writes the seed as a string.
func (s Seed) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatUint(uint64(s), 10) + `"`), nil
}

// UnmarshalJSON reads a string or a number of decimal digits.
func (s *Seed) UnmarshalJSON(b []byte) error {
	text := string(b)
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		text = text[1 : len(text)-1]
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return fmt.Errorf("seed %s: want a whole number from 0 to 18446744073709551615", b)
	}
	*s = Seed(n)
	return nil
}
