package web

import (
	"fmt"
	"slices"
	"testing"

	"tessera/internal/store"
)

// TestPicturesPaged: GET /api/pictures comes in pages, as the saves lists:
// the built-in pictures, then the client's uploads, cut by ?offset= and
// ?limit=, with the total and the next page's offset.
func TestPicturesPaged(t *testing.T) {
	s, _ := newServer(t, Config{})
	for i := range 7 {
		_, err := s.store.AddPicture(t.Context(), store.Picture{Owner: clientA, Name: fmt.Sprint("p", i), Type: "image/png",
			Data: fmt.Appendf(nil, "picture %d", i), Width: 1, Height: 1}, store.PictureLimits{})
		if err != nil {
			t.Fatal(err)
		}
	}
	nb := len(builtinPictures)
	all := decode[picturesList](t, as(t, s, clientA, "GET", "/api/pictures", nil), 200)
	if len(all.Pictures) != nb+7 || all.Total != nb+7 || all.Next != nil {
		t.Fatalf("the first page by default: %d pictures, total %d, next %v; want all %d, no next", len(all.Pictures), all.Total, all.Next, nb+7)
	}
	if !slices.Equal(all.Pictures[:nb], builtinPictures) {
		t.Errorf("the list does not start with the built-in pictures: %+v", all.Pictures[:nb])
	}
	// Pages of 4 put together give the whole list, in order.
	var got []pictureInfo
	offsets := []int{}
	for offset := 0; ; {
		offsets = append(offsets, offset)
		p := decode[picturesList](t, as(t, s, clientA, "GET", fmt.Sprintf("/api/pictures?offset=%d&limit=4", offset), nil), 200)
		if p.Total != nb+7 || len(p.Pictures) > 4 {
			t.Fatalf("page at %d: %d pictures, total %d", offset, len(p.Pictures), p.Total)
		}
		got = append(got, p.Pictures...)
		if p.Next == nil {
			break
		}
		offset = *p.Next
	}
	if !slices.Equal(got, all.Pictures) || !slices.Equal(offsets, []int{0, 4, 8}) {
		t.Errorf("pages at %v gave %d pictures, want %d in pages at 0, 4, 8", offsets, len(got), len(all.Pictures))
	}
	if p := decode[picturesList](t, as(t, s, clientA, "GET", "/api/pictures?offset=20", nil), 200); len(p.Pictures) != 0 || p.Next != nil {
		t.Errorf("a page past the end: %+v", p)
	}
	if p := decode[picturesList](t, as(t, s, clientB, "GET", "/api/pictures", nil), 200); p.Total != nb {
		t.Errorf("another client's total: %d, want the %d built-in pictures", p.Total, nb)
	}
	wantError(t, as(t, s, clientA, "GET", "/api/pictures?limit=0", nil), 400, "limit")
	wantError(t, as(t, s, clientA, "GET", "/api/pictures?offset=-1", nil), 400, "offset")
}
