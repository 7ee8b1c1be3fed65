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

func (s *Server) listPictures(r *http.Request) (int, any, error) {
	uploads, err := s.store.Pictures(r.Context())
	if err != nil {
		return 0, nil, err
	}
	list := append([]pictureInfo(nil), builtinPictures...)
	for _, p := range uploads {
		list = append(list, uploadInfo(p))
	}
	return http.StatusOK, map[string]any{"pictures": list}, nil
}

// servePicture serves an uploaded picture. Its URL names its content, so
// browsers may keep it for good.
func (s *Server) servePicture(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !isUploadID(id) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no picture %q", id))
		return
	}
	p, err := s.store.Picture(r.Context(), id)
	if err != nil {
		s.fail(w, r, storeError(err))
		return
	}
	w.Header().Set("Content-Type", p.Type)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
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
	if err := s.store.DeletePicture(r.Context(), id); err != nil {
		return 0, nil, storeError(err)
	}
	return http.StatusNoContent, nil, nil
}

// uploadPicture takes a picture as a multipart form (field "picture") or
// as the raw body with an image media type, checks its size before
// decoding it, crops the middle square, scales it down to PictureSide,
// turns it upright by its EXIF orientation, and stores it as JPEG.
func (s *Server) uploadPicture(r *http.Request) (int, any, error) {
	data, name, err := readUpload(r, s.cfg.MaxUploadBytes)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SolveTimeout)
	defer cancel()
	if err := s.acquire(ctx); err != nil {
		return 0, nil, err
	}
	jpg, side, err := squarePicture(data, s.cfg.MaxUploadPixels, s.cfg.PictureSide)
	s.release()
	if err != nil {
		return 0, nil, err
	}
	p, err := s.store.AddPicture(r.Context(), store.Picture{Name: name, Type: "image/jpeg", Data: jpg, Width: side, Height: side}, s.cfg.MaxPictures)
	if err != nil {
		return 0, nil, err
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

// squarePicture decodes an uploaded PNG, JPEG or WebP file with
// imageio.Decode (at most maxPixels pixels, checked before decoding; EXIF
// orientation applied) after checking that both sides are at least
// minPictureSide, crops its middle square, scales it to at most side
// pixels, flattens any transparency on white, and encodes it as JPEG. It
// returns the JPEG and its side.
func squarePicture(data []byte, maxPixels, side int) (out []byte, outSide int, err error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, 0, errorf(http.StatusUnsupportedMediaType, "not a PNG, JPEG or WebP picture")
	}
	if cfg.Width < minPictureSide || cfg.Height < minPictureSide {
		return nil, 0, errorf(http.StatusUnprocessableEntity, "picture %dx%d is too small: both sides must be at least %d pixels", cfg.Width, cfg.Height, minPictureSide)
	}
	// The decoders are not expected to panic, but they read untrusted
	// bytes: a panic is a bad picture.
	defer func() {
		if v := recover(); v != nil {
			out, outSide, err = nil, 0, errorf(http.StatusBadRequest, "cannot decode the picture")
		}
	}()
	decoded, err := imageio.Decode(bytes.NewReader(data), imageio.Options{MaxPixels: int64(maxPixels), MaxBytes: int64(len(data)) + 1})
	switch {
	case errors.Is(err, imageio.ErrTooLarge):
		return nil, 0, errorf(http.StatusRequestEntityTooLarge, "picture %dx%d has more than %d million pixels", cfg.Width, cfg.Height, maxPixels/1_000_000)
	case errors.Is(err, imageio.ErrFormat):
		return nil, 0, errorf(http.StatusUnsupportedMediaType, "not a PNG, JPEG or WebP picture")
	case err != nil:
		return nil, 0, errorf(http.StatusBadRequest, "cannot decode the picture: %v", err)
	}
	img := decoded.Pix
	b := img.Bounds()
	sq := min(b.Dx(), b.Dy())
	crop := image.Rect(0, 0, sq, sq).Add(b.Min).Add(image.Pt((b.Dx()-sq)/2, (b.Dy()-sq)/2))
	outSide = min(sq, side)
	dst := image.NewRGBA(image.Rect(0, 0, outSide, outSide))
	draw.Draw(dst, dst.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Rect, img, crop, draw.Over, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90}); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), outSide, nil
}
