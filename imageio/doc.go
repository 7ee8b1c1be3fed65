// Package imageio decodes the images Tessera reads (PNG with 8 or 16 bits
// per channel, JPEG, WebP), applies their EXIF orientation, and converts
// sRGB colours to CIE L*a*b* quickly with lookup tables.
//
// Decode reads the whole input (at most Options.MaxBytes), recognises the
// format by its signature, checks the declared size against
// Options.MaxPixels before decoding any pixel (so a small file that
// declares a huge image is refused at once), decodes, and returns the
// pixels as an *image.NRGBA64 turned upright according to the EXIF
// orientation tag, if any. Every error starts with "imageio:" and names the
// problem: ErrEmpty, ErrFormat, ErrTooLarge, or a corrupt file with the
// decoder's own message.
//
// 8-bit images are widened exactly (v*257), so an 8-bit image and its 16-bit
// copy decode to the same pixels; 16-bit images (the MIT jigsaw set) keep
// their full precision, and Lab converts from 16 bits.
//
//	img, err := imageio.Load("photo.jpg", imageio.Options{})
//	if err != nil { ... }
//	L, a, b := imageio.Lab(img.Pix.NRGBA64At(0, 0))
//
// DecodeReduced decodes a rectangle of an image shrunk by a whole factor
// (the mean of each box), for callers that need a small picture of a large
// file: a non-interlaced PNG is streamed a row at a time, so its memory does
// not grow with its height; DecodeCost estimates the memory from the header.
//
// Lab uses the sRGB transfer curve and the D65 white point (IEC 61966-2-1,
// CIE 15); a 65,536-entry table linearises each channel and a table with
// linear interpolation replaces the cube root, within 0.002 of the exact
// values in L*, a* and b*.
package imageio
