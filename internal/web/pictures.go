package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	_ "image/png" // registers the PNG decoder for uploads
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/image/draw"

	"tessera/imageio"
	"tessera/internal/store"
)

// pictureInfo describes a picture in lists and answers.
type pictureInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	URL     string `json:"url"`
	Builtin bool   `json:"builtin"`
}

// builtinPictures are the pictures made by the project (see genpictures),
// served from static/pictures/ID.png.
var builtinPictures = []pictureInfo{
	builtin("sunset", "Sunset"),
	builtin("mosaic", "Mosaic"),
	builtin("mandelbrot", "Mandelbrot"),
	builtin("glass", "Stained glass"),
	// A photograph: Kodak's PhotoCD PCD0992 image 23, released by Eastman
	// Kodak for unrestricted use; its middle 512 x 512 scaled to 480 x 480.
	// The gap networks learned on photographs (BSDS500): this is the
	// picture they are made for, the gaps page's default.
	builtin("parrots", "Parrots (photograph)"),
}

func builtin(id, name string) pictureInfo {
	return pictureInfo{ID: id, Name: name, URL: "/static/pictures/" + id + ".png", Builtin: true}
}

func isBuiltinPicture(id string) bool {
	for _, p := range builtinPictures {
		if p.ID == id {
			return true
		}
	}
	return false
}

// isUploadID reports whether id has the form of an uploaded picture's ID,
// as store.PictureID makes them: 20 lower-case hex digits.
func isUploadID(id string) bool {
	if len(id) != 20 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// validPictureID reports whether id names a built-in picture or has the
// form of an upload's ID. IDs are never file names: uploads live in the
// database.
func validPictureID(id string) bool { return isBuiltinPicture(id) || isUploadID(id) }

func uploadInfo(p store.Picture) pictureInfo {
	return pictureInfo{ID: p.ID, Name: p.Name, URL: "/pictures/" + p.ID}
}

// picture reads an uploaded picture: the requesting client's own when ctx
// is a request's, any owner's in a job (whose submitter's ownership of
// its pictures submitJob checked).
func (s *Server) picture(ctx context.Context, id string) (store.Picture, error) {
	if owner, ok := clientOf(ctx); ok {
		return s.store.Picture(ctx, owner, id)
	}
	return s.store.PictureAnyOwner(ctx, id)
}

// picturesList is the answer of GET /api/pictures: a page (?offset=,
// ?limit=, as the saves lists) of the built-in pictures followed by the
// client's uploads, the newest first; how many there are in all, and the
// offset of the next page (absent on the last).
type picturesList struct {
	Pictures []pictureInfo `json:"pictures"`
	Total    int           `json:"total"`
	Next     *int          `json:"next,omitempty"`
}

func (s *Server) listPictures(r *http.Request) (int, any, error) {
	page, err := savesPage(r)
	if err != nil {
		return 0, nil, err
	}
	if err := s.adoptOrphans(r); err != nil {
		return 0, nil, err
	}
	nb := len(builtinPictures)
	list := append([]pictureInfo{}, builtinPictures[min(page.Offset, nb):min(page.Offset+page.Limit, nb)]...)
	// The uploads' part of the page (a row at least: a Limit of 0 is all).
	rest := page.Limit - len(list)
	uploads, total, err := s.store.Pictures(r.Context(), ownerOf(r), store.Page{Offset: max(page.Offset-nb, 0), Limit: max(rest, 1)})
	if err != nil {
		return 0, nil, err
	}
	for _, p := range uploads[:min(rest, len(uploads))] {
		list = append(list, uploadInfo(p))
	}
	answer := picturesList{Pictures: list, Total: nb + total}
	if next := page.Offset + len(list); next < answer.Total {
		answer.Next = &next
	}
	return http.StatusOK, answer, nil
}

// servePicture serves one of the client's uploaded pictures. Its URL names
// its content, so the browser may keep it for good (but no shared cache:
// it is the client's).
func (s *Server) servePicture(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !isUploadID(id) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no picture %q", id))
		return
	}
	p, err := s.store.Picture(r.Context(), ownerOf(r), id)
	if err != nil {
		s.fail(w, r, storeError(err))
		return
	}
	w.Header().Set("Content-Type", p.Type)
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	w.Header().Set("ETag", `"`+p.ID+`"`)
	http.ServeContent(w, r, "", p.Created, bytes.NewReader(p.Data))
}

func (s *Server) deletePicture(r *http.Request) (int, any, error) {
	id := r.PathValue("id")
	if isBuiltinPicture(id) {
		return 0, nil, errorf(http.StatusBadRequest, "built-in pictures cannot be deleted")
	}
	if !isUploadID(id) {
		return 0, nil, errorf(http.StatusNotFound, "no picture %q", id)
	}
	if err := s.store.DeletePicture(r.Context(), ownerOf(r), id); err != nil {
		return 0, nil, storeError(err)
	}
	return http.StatusNoContent, nil, nil
}

// uploadPicture takes a picture as a multipart form (field "picture") or
// as the raw body with an image media type, checks its size and its header
// before decoding it, decodes it reduced (see squarePicture) while it holds
// a solver slot and its decoding memory (Config.DecodeMemory), and stores
// it as JPEG.
func (s *Server) uploadPicture(r *http.Request) (int, any, error) {
	data, name, err := readUpload(r, s.cfg.MaxUploadBytes)
	if err != nil {
		return 0, nil, err
	}
	plan, err := planPicture(data, s.cfg.MaxUploadPixels, s.cfg.PictureSide)
	if err != nil {
		return 0, nil, err
	}
	if plan.cost > s.cfg.DecodeMemory {
		return 0, nil, errorf(http.StatusRequestEntityTooLarge, "picture %dx%d needs %d MiB to decode, over the server's decoding memory of %d MiB; send it smaller (or as a non-interlaced PNG, decoded a row at a time)", plan.width, plan.height, plan.cost>>20, s.cfg.DecodeMemory>>20)
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SolveTimeout)
	defer cancel()
	// Memory first: an upload waiting for it holds no solver slot.
	if err := s.decodeMem.acquire(ctx, plan.cost); err != nil {
		return 0, nil, errorf(http.StatusServiceUnavailable, "server busy: decoding other pictures held its %d MiB of decoding memory until this one's time ran out; try again", s.cfg.DecodeMemory>>20)
	}
	if err := s.acquire(ctx); err != nil {
		s.decodeMem.release(plan.cost)
		return 0, nil, err
	}
	jpg, side, err := plan.decode(data)
	s.release()
	s.decodeMem.release(plan.cost)
	if err != nil {
		return 0, nil, err
	}
	p, err := s.store.AddPicture(r.Context(), store.Picture{Owner: ownerOf(r), Name: name, Type: "image/jpeg", Data: jpg, Width: side, Height: side},
		store.PictureLimits{Keep: s.cfg.MaxPictures, Total: s.cfg.MaxPicturesTotal})
	if err != nil {
		return 0, nil, storeError(err)
	}
	return http.StatusCreated, uploadInfo(p), nil
}

// readUpload reads the uploaded file, at most limit bytes, and a label for
// it (the file's base name without extension, or ?name=).
func readUpload(r *http.Request, limit int64) ([]byte, string, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		mt = ""
	}
	tooLarge := errorf(http.StatusRequestEntityTooLarge, "picture file larger than %d MiB", limit>>20)
	switch {
	case strings.HasPrefix(mt, "image/"):
		data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		if err != nil {
			return nil, "", err
		}
		if int64(len(data)) > limit {
			return nil, "", tooLarge
		}
		return data, pictureLabel(r.URL.Query().Get("name")), nil
	case mt == "multipart/form-data":
		// Room for the form's own headers around the file.
		r.Body = http.MaxBytesReader(nil, r.Body, limit+64<<10)
		mr, err := r.MultipartReader()
		if err != nil {
			return nil, "", errorf(http.StatusBadRequest, "malformed form: %v", err)
		}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				return nil, "", errorf(http.StatusBadRequest, `no "picture" file in the form`)
			}
			if err != nil {
				if isMaxBytes(err) {
					return nil, "", tooLarge
				}
				return nil, "", errorf(http.StatusBadRequest, "malformed form: %v", err)
			}
			if part.FormName() != "picture" {
				continue
			}
			data, err := io.ReadAll(io.LimitReader(part, limit+1))
			if isMaxBytes(err) || int64(len(data)) > limit {
				return nil, "", tooLarge
			}
			if err != nil {
				return nil, "", errorf(http.StatusBadRequest, "malformed form: %v", err)
			}
			return data, pictureLabel(part.FileName()), nil
		}
	}
	return nil, "", errorf(http.StatusUnsupportedMediaType, "send the picture as multipart/form-data (field \"picture\") or as the body with an image/* Content-Type")
}

func isMaxBytes(err error) bool {
	var mbe *http.MaxBytesError
	return err != nil && errors.As(err, &mbe)
}

// pictureLabel makes a short label from a file name: base name, no
// extension, printable characters, at most 60 of them.
func pictureLabel(file string) string {
	base := filepath.Base(strings.ReplaceAll(file, `\`, "/"))
	base = strings.TrimSuffix(base, filepath.Ext(base))
	base = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, base)
	if rs := []rune(strings.TrimSpace(base)); len(rs) > 60 {
		base = string(rs[:60])
	}
	base = strings.TrimSpace(base)
	if base == "" || base == "." || base == "/" {
		return "upload"
	}
	return base
}

// minPictureSide is the smallest side an upload may have.
const minPictureSide = 64

// picturePlan is how an upload will be decoded, from its header alone.
type picturePlan struct {
	width, height int
	crop          image.Rectangle // the middle square, in stored pixels, a multiple of factor
	factor        int             // the box reduction while decoding
	side          int             // the stored picture's side
	cost          int64           // bytes held while decoding, about
}

// planPicture reads an upload's header (nothing is decoded): the format
// must be PNG, JPEG or WebP, both sides at least minPictureSide, and at
// most maxPixels pixels. It plans the middle square, reduced while decoding
// by the largest whole factor that keeps it at least side pixels, and
// estimates the memory the decoding holds: imageio.DecodeCost (a few rows
// for a non-interlaced PNG, the decoded image otherwise) and the reduced
// square, scaled and turned, about 104 side^2 bytes (37 MiB for 600).
func planPicture(data []byte, maxPixels, side int) (picturePlan, error) {
	notPicture := errorf(http.StatusUnsupportedMediaType, "not a PNG, JPEG or WebP picture")
	if imageio.Sniff(data) == "" {
		return picturePlan{}, notPicture
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return picturePlan{}, notPicture
	}
	if cfg.Width < minPictureSide || cfg.Height < minPictureSide {
		return picturePlan{}, errorf(http.StatusUnprocessableEntity, "picture %dx%d is too small: both sides must be at least %d pixels", cfg.Width, cfg.Height, minPictureSide)
	}
	if int64(cfg.Width)*int64(cfg.Height) > int64(maxPixels) {
		return picturePlan{}, errorf(http.StatusRequestEntityTooLarge, "picture %dx%d has more than %d million pixels", cfg.Width, cfg.Height, maxPixels/1_000_000)
	}
	cost, err := imageio.DecodeCost(data)
	if err != nil {
		return picturePlan{}, errorf(http.StatusBadRequest, "cannot decode the picture: %v", err)
	}
	sq := min(cfg.Width, cfg.Height)
	f := max(1, sq/side)
	sq = sq / f * f
	crop := image.Rect(0, 0, sq, sq).Add(image.Pt((cfg.Width-sq)/2, (cfg.Height-sq)/2))
	s := int64(min(sq/f, side))
	return picturePlan{
		width: cfg.Width, height: cfg.Height, crop: crop, factor: f, side: int(s),
		cost: cost + 104*s*s,
	}, nil
}

// squarePicture decodes an uploaded PNG, JPEG or WebP file as
// planPicture plans it and returns the stored JPEG and its side.
func squarePicture(data []byte, maxPixels, side int) ([]byte, int, error) {
	plan, err := planPicture(data, maxPixels, side)
	if err != nil {
		return nil, 0, err
	}
	return plan.decode(data)
}

// decode decodes the middle square reduced by the plan's factor (so a huge
// picture never lies decoded whole in memory when it is a non-interlaced
// PNG), scales it to the plan's side, flattens any transparency on white,
// turns it upright by its EXIF orientation, and encodes it as JPEG.
func (plan picturePlan) decode(data []byte) (out []byte, outSide int, err error) {
	// The decoders are not expected to panic, but they read untrusted
	// bytes: a panic is a bad picture.
	defer func() {
		if v := recover(); v != nil {
			out, outSide, err = nil, 0, errorf(http.StatusBadRequest, "cannot decode the picture")
		}
	}()
	img, err := imageio.DecodeReduced(data, plan.crop, plan.factor)
	switch {
	case errors.Is(err, imageio.ErrFormat):
		return nil, 0, errorf(http.StatusUnsupportedMediaType, "not a PNG, JPEG or WebP picture")
	case err != nil:
		return nil, 0, errorf(http.StatusBadRequest, "cannot decode the picture: %v", err)
	}
	dst := image.NewRGBA(image.Rect(0, 0, plan.side, plan.side))
	draw.Draw(dst, dst.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Rect, img, img.Rect, draw.Over, nil)
	var upright image.Image = dst
	if o := imageio.Orientation(data); o > 1 {
		upright = imageio.Orient(imageio.ToNRGBA64(dst), o)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, upright, &jpeg.Options{Quality: 90}); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), plan.side, nil
}
