// Package report prints daily sales.
package report

import (
	"fmt"
	"strings"
)

// Row is the sales of one product.
type Row struct {
	Product string
	Sold    int
}

// Render writes one line per row: the product, then the number sold.
func Render(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-8s %4d\n", r.Product, r.Sold)
	}
	return b.String()
}
