package robotstxt_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/robotstxt-engine/robotstxt-go"
)

func TestProductToken(t *testing.T) {
	for _, c := range []struct{ ua, want string }{
		{"PoliteBot/1.0 (+https://example.com/bot)", "PoliteBot"},
		{"Mozilla/5.0 (compatible; PoliteBot/2.1; +https://example.com/bot)", "PoliteBot"},
		{"Mozilla/5.0 (COMPATIBLE;PoliteBot/2.1)", "PoliteBot"},
		{"  Polite_Bot", "Polite_Bot"},
		{"PoliteBot", "PoliteBot"},
		{"polite-bot;v2", "polite-bot"},
	} {
		got, err := robotstxt.ProductToken(c.ua)
		if err != nil || got != c.want {
			t.Errorf("ProductToken(%q) = %q, %v; want %q", c.ua, got, err, c.want)
		}
	}
	for _, ua := range []string{"", "  ", "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "Bot2/1.0", "(compatible)"} {
		got, err := robotstxt.ProductToken(ua)
		var te *robotstxt.TokenError
		if got != "" || !errors.Is(err, robotstxt.ErrInvalidToken) || !errors.As(err, &te) || te.Token != ua {
			t.Errorf("ProductToken(%q) = %q, %v; want a *TokenError", ua, got, err)
		} else if !strings.Contains(te.Message, `"`+ua+`"`) {
			t.Errorf("ProductToken(%q): the message %q does not say what was passed", ua, te.Message)
		}
	}
	// The token selects the crawler's group, and costs no allocation.
	robots := mustParse(t, "User-agent: politebot\nDisallow: /\n")
	ua := "Mozilla/5.0 (compatible; PoliteBot/2.1; +https://example.com/bot)"
	token, _ := robotstxt.ProductToken(ua)
	if mustRules(t, robots, token).Allowed("/page") {
		t.Error("the product token did not select its group")
	}
	robotstxt.SettleCore() // the WebAssembly core's interpreter, first, allocates
	if n := testing.AllocsPerRun(100, func() { _, _ = robotstxt.ProductToken(ua) }); n != 0 {
		t.Errorf("ProductToken allocates %v times", n)
	}
}
