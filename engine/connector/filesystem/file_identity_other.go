//go:build !unix

package filesystem

import "os"

// fileIdentity is empty where stat(2) is not: size and modification time
// identify the file.
type fileIdentity struct{}

func identify(os.FileInfo) fileIdentity { return fileIdentity{} }
