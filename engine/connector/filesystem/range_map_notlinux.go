//go:build unix && !linux

package filesystem

const mapPopulate = 0
