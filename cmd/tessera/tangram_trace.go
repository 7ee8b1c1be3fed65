package main

// The figure set and the tracer are verbs of the tangram family; they are
// added here, after tangram.go has registered the family, so that the two
// files can change apart.
func init() {
	for _, f := range families {
		if f.Name == "tangram" {
			f.Commands = append(f.Commands, tgFiguresCmd)
		}
	}
}
