package ga

// split assigns the pieces of ch to output images.
func (pr *problem) split(ch *chromosome, images int) ([]int32, int) {
	return nil, 1
}
