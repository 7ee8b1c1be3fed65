package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"
)

//go:embed templates
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// parsePages parses each game's page, templates/KIND.html, with the shared
// layout; the pages are keyed by kind.
func parsePages(games []*game) (map[string]*template.Template, error) {
	layout, err := template.New("layout.html").Funcs(template.FuncMap{"section": section}).ParseFS(templateFS, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	pages := map[string]*template.Template{}
	for _, g := range games {
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, "templates/"+g.Kind+".html")
		if err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
		pages[g.Kind] = t
	}
	return pages, nil
}

// sectionHead is the heading of a section of a page's panel (the
// template "section"): the heading's id is h-ID.
type sectionHead struct{ ID, Title string }

// section is the templates' func that makes a sectionHead.
func section(id, title string) sectionHead { return sectionHead{id, title} }

// pageData is what the templates see: the menu, and the game's own data.
type pageData struct {
	Title  string
	Games  []*game
	Active *game
	Game   any
	// Auto and Budgets are the game's auto and budgets, for the layout's
	// Auto panel.
	Auto    string
	Budgets []budgetOption
}

// budgetOption is an entry of a page's menu of search times.
type budgetOption struct {
	MS       int64
	Label    string // "30 s", "2 min"
	Selected bool
}

// budgetMenu returns the menu of the times ts, def selected.
func budgetMenu(def time.Duration, ts ...time.Duration) []budgetOption {
	menu := make([]budgetOption, len(ts))
	for i, t := range ts {
		label := fmt.Sprintf("%d s", t/time.Second)
		if t >= time.Minute {
			label = fmt.Sprintf("%d min", t/time.Minute)
		}
		menu[i] = budgetOption{MS: t.Milliseconds(), Label: label, Selected: t == def}
	}
	return menu
}

func (s *Server) servePage(g *game) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data := pageData{Title: g.Title, Games: s.games, Active: g, Game: g.data(), Auto: g.auto, Budgets: g.budgets}
		var buf bytes.Buffer
		if err := s.pages[g.Kind].ExecuteTemplate(&buf, "layout", data); err != nil {
			s.log.ErrorContext(r.Context(), "template", "page", g.Kind, "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(buf.Bytes())
	}
}

// staticHandler serves the embedded static files with an ETag made from
// their content, so browsers revalidate cheaply (Cache-Control: no-cache)
// and always run the files of the running server. Folders are not listed.
func staticHandler() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	etags := map[string]string{}
	err = fs.WalkDir(sub, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		etags[path] = `"` + hex.EncodeToString(sum[:8]) + `"`
		return nil
	})
	if err != nil {
		panic(err) // reading an embedded FS cannot fail
	}
	files := http.FileServerFS(sub)
	return http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tag, ok := etags[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))
}
