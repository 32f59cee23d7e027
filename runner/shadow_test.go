package runner

import (
	"reflect"
	"testing"

	"bench/record"
	"bench/track"
)

// TestNoFieldShadowsASetting: a struct that embeds record.RunSettings
// declares no field of a setting's name, so that cfg.WorkflowModel is
// always the setting (a model's name) and never a client of it. The
// clients are WorkflowClient and Model.
func TestNoFieldShadowsASetting(t *testing.T) {
	settings := map[string]bool{}
	rs := reflect.TypeFor[record.RunSettings]()
	for i := range rs.NumField() {
		settings[rs.Field(i).Name] = true
	}
	if !settings["WorkflowModel"] {
		t.Fatal("record.RunSettings has no WorkflowModel: this test reads the wrong struct")
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[Config](), reflect.TypeFor[Spec](), reflect.TypeFor[track.Env](), reflect.TypeFor[record.Run]()} {
		embeds := false
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Anonymous && f.Type == rs {
				embeds = true
			} else if settings[f.Name] {
				t.Errorf("%s.%s shadows the setting record.RunSettings.%s", typ, f.Name, f.Name)
			}
		}
		if !embeds {
			t.Errorf("%s no longer embeds record.RunSettings", typ)
		}
	}
}
