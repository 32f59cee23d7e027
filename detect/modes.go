package detect

import "strings"

// Modes, after normalisation.
const (
	ModeAuto  = "auto"  // coding on an interactive surface in a code workspace
	ModeFocus = "focus" // like auto, and narrows the toolset and demotes skill categories
	ModeOn    = "on"    // coding anywhere
	ModeOff   = "off"   // always general
)

// Profiles a decision can name.
const (
	ProfileCoding  = "coding"
	ProfileGeneral = "general"
)

// modeAliases maps every accepted spelling (trimmed, lower-cased) to its
// mode; anything absent means ModeAuto.
var modeAliases = map[string]string{
	"focus": ModeFocus, "strict": ModeFocus, "lean": ModeFocus,
	"on": ModeOn, "true": ModeOn, "yes": ModeOn, "1": ModeOn, "always": ModeOn,
	"off": ModeOff, "false": ModeOff, "no": ModeOff, "0": ModeOff, "never": ModeOff,
}

// interactivePlatforms are the surfaces on which auto and focus may take the
// coding posture; messaging platforms are deliberately absent.
var interactivePlatforms = map[string]bool{"cli": true, "tui": true, "acp": true, "desktop": true, "": true}

// NormalizeMode trims and lower-cases mode and resolves its aliases; an
// unknown or empty mode is ModeAuto.
func NormalizeMode(mode string) string {
	if m, ok := modeAliases[strings.ToLower(strings.TrimSpace(mode))]; ok {
		return m
	}
	return ModeAuto
}

// NormalizePlatform trims and lower-cases a platform name.
func NormalizePlatform(platform string) string {
	return strings.ToLower(strings.TrimSpace(platform))
}

// Interactive reports whether a normalised platform is an interactive coding
// surface (cli, tui, acp, desktop or empty).
func Interactive(platform string) bool {
	return interactivePlatforms[platform]
}
