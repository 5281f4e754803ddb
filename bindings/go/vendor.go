//go:build robotstxt_vendor

package robotstxt

// Never built: `go mod vendor` follows imports under every tag, and copies
// only folders that are packages, so these imports bring the header and the
// prebuilt libraries along into vendor/.
import (
	_ "github.com/robotstxt-engine/robotstxt-go/include"
	_ "github.com/robotstxt-engine/robotstxt-go/lib/darwin_amd64"
	_ "github.com/robotstxt-engine/robotstxt-go/lib/darwin_arm64"
	_ "github.com/robotstxt-engine/robotstxt-go/lib/linux_amd64"
	_ "github.com/robotstxt-engine/robotstxt-go/lib/linux_arm64"
	_ "github.com/robotstxt-engine/robotstxt-go/lib/windows_amd64"
)
