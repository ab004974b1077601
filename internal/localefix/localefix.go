// Package localefix keeps Fyne from logging "Error parsing user locale C"
// on every start under LANG=C.UTF-8 (the default of Debian containers and
// CI machines), which would otherwise litter the stderr of `riffle sql`.
//
// Fyne's lang package reads the locale in its init through
// github.com/jeandeaual/go-locale, which treats "C" and "POSIX" as "no
// locale" but passes "C.UTF-8" on as the language tag "C". When the
// effective locale is such a C variant and LANGUAGE is unset, this package
// sets LANGUAGE=en, which go-locale then uses (and which gettext ignores
// under a C locale, so child processes are unaffected).
//
// Import it for its side effect from package main. Its init runs before
// Fyne's: Go initializes, at each step, the first package by import path
// whose imports are done; this package needs only "os", while Fyne's lang
// waits for golang.org/x/text, whose path sorts after ours.
package localefix

import (
	"os"
	"strings"
)

func init() { apply(os.Getenv, os.Setenv) }

func apply(getenv func(string) string, setenv func(string, string) error) {
	if getenv("LANGUAGE") != "" {
		return
	}
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(v); locale != "" {
			break
		}
	}
	lang, _, found := strings.Cut(locale, ".")
	if found && (lang == "C" || lang == "POSIX") {
		_ = setenv("LANGUAGE", "en")
	}
}
