//go:build robotstxt_vendor

package robotstxt

// Never built: `go mod vendor` follows imports under every tag, and copies
// only folders that are packages, so these imports bring the header and the
// prebuilt library along into vendor/.
import (
	_ "github.com/robotstxt-engine/robotstxt-go/include"
	_ "github.com/robotstxt-engine/robotstxt-go/lib/linux_amd64"
)
