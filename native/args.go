package native

import "fmt"

// TypeError is an argument of the wrong JavaScript type; it is thrown as a JS TypeError
// with code ERR_INVALID_ARG_TYPE, as Node's own APIs do.
type TypeError struct {
	Arg  string // the argument's name as the JS API documents it
	Want string // what it should have been, e.g. "a string"
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("The %q argument must be %s.", e.Arg, e.Want)
}

// StringArg returns argument i, which must be a string.
func (c *Call) StringArg(i int, name string) (string, error) {
	s, ok := c.ReadString(c.Arg(i))
	if !ok {
		return "", &TypeError{Arg: name, Want: "a string"}
	}
	return s, nil
}

// OptStringArg returns argument i when it is a string; present is false when it is undefined
// or null. Any other type is a TypeError.
func (c *Call) OptStringArg(i int, name string) (s string, present bool, err error) {
	v := c.Arg(i)
	if c.IsNullish(v) {
		return "", false, nil
	}
	s, ok := c.ReadString(v)
	if !ok {
		return "", false, &TypeError{Arg: name, Want: "a string, undefined or null"}
	}
	return s, true, nil
}

// NumberArg returns argument i, which must be a number.
func (c *Call) NumberArg(i int, name string) (float64, error) {
	f, ok := c.ReadNumber(c.Arg(i))
	if !ok {
		return 0, &TypeError{Arg: name, Want: "a number"}
	}
	return f, nil
}
