package standin

// NoEqual is the type of a blank field that makes a struct not comparable:
//
//	_ standin.NoEqual
//
// Go writes an equality function (type..eq) for every comparable struct
// type that the program may compare with == or use as a map key or in an
// interface, and the linker keeps it in the module; a struct with a field
// of a function type has none, and a zero-length array of functions costs
// no bytes in the value. The browser's module compares none of these
// structs, so it carries none of their equality functions. This is the one
// place this idiom is explained. It is an alias, not a new type, so that
// the modules stay byte for byte what the bare [0]func() made them (a
// named type adds its name and descriptor). core/calc's TestNotComparable
// holds the types to it; core/standin/bench.sh measures the modules.
type NoEqual = [0]func()
