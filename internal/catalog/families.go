package catalog

// Families returns every family's menu by family name (npuzzle, jigsaw,
// edgematch, samegame, ...), for listings and the web app.
func Families() map[string][]Menu {
	return map[string][]Menu{
		// Each family file adds its table here as it lands.
	}
}
