package uci

import (
	"os"
	"testing"

	"github.com/makruktb/makruktb/internal/testenv"
)

func TestMain(m *testing.M) {
	if os.Getenv("MAKRUKTB_FAKE_ENGINE") != "" {
		fakeEngine()
		return
	}
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}
