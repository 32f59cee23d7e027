package model

// Servers is base once per host and model, hosts outermost: the servers
// that a run over several hosts and models talks to, in the order they
// are checked. An empty hosts or models keeps base's own.
func Servers(base Config, hosts, models []string) []Config {
	if len(hosts) == 0 {
		hosts = []string{base.Host}
	}
	if len(models) == 0 {
		models = []string{base.Model}
	}
	out := make([]Config, 0, len(hosts)*len(models))
	for _, h := range hosts {
		for _, m := range models {
			cfg := base
			cfg.Host, cfg.Model = h, m
			out = append(out, cfg)
		}
	}
	return out
}
